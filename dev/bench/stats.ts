/** Percentiles of latency samples (ms). */
export const percentile = (samples: ReadonlyArray<number>, p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};

export const summary = (samples: ReadonlyArray<number>) => ({
  p50: percentile(samples, 50),
  p95: percentile(samples, 95),
  p99: percentile(samples, 99),
});

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/** Least-squares slope of `y` over `x` (units of y per unit of x). */
export const slope = (points: ReadonlyArray<{ readonly x: number; readonly y: number }>): number => {
  const mean = (values: ReadonlyArray<number>) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const mx = mean(points.map((p) => p.x));
  const my = mean(points.map((p) => p.y));
  const covariance = points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0);
  const variance = points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
};
