/** A small Prometheus text-format registry: counters and one latency histogram. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels = Readonly<Record<string, string>>;

const labelText = (labels: Labels): string => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, "_")}"`);
  return parts.length === 0 ? "" : `{${parts.join(",")}}`;
};

export interface Metrics {
  readonly countRequest: (route: string, method: string, status: number, seconds: number) => void;
  readonly count: (name: CounterName, labels?: Labels, by?: number) => void;
  readonly render: () => string;
}

export const COUNTERS = {
  chat_payment_required_total: "Chat requests answered 402 (quota exhausted)",
  payment_grants_total: "Payments verified and granted",
  payment_queries_granted_total: "Queries granted by payments",
  payment_rejections_total: "Payments rejected, by reason",
  protection_rate_limited_total: "Requests refused by the per-identity protection limit",
  answers_total: "Answers served",
} as const;
export type CounterName = keyof typeof COUNTERS;

/** Creates an empty registry. */
export const makeMetrics = (): Metrics => {
  const counters = new Map<string, number>();
  const requests = new Map<string, number>();
  // Per route: count per bucket (not cumulative; summed when rendered), sum and count.
  const histogram = new Map<string, { readonly buckets: number[]; sum: number; count: number }>();
  const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
  return {
    countRequest: (route, method, status, seconds) => {
      bump(requests, `${route}\u0000${method}\u0000${status}`);
      let entry = histogram.get(route);
      if (entry === undefined) {
        entry = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
        histogram.set(route, entry);
      }
      let bucket = BUCKETS.findIndex((bound) => seconds <= bound);
      if (bucket < 0) bucket = BUCKETS.length;
      if (bucket < BUCKETS.length) entry.buckets[bucket] = (entry.buckets[bucket] ?? 0) + 1;
      entry.sum += seconds;
      entry.count += 1;
    },
    count: (name, labels = {}, by = 1) => bump(counters, `${name}${labelText(labels)}`, by),
    render: () => {
      const out: string[] = [
        "# HELP http_requests_total HTTP requests by route, method and status",
        "# TYPE http_requests_total counter",
        ...[...requests].map(([key, n]) => {
          const [route = "", method = "", status = ""] = key.split("\u0000");
          return `http_requests_total${labelText({ route, method, status })} ${n}`;
        }),
        "# HELP http_request_duration_seconds Request latency by route",
        "# TYPE http_request_duration_seconds histogram",
      ];
      for (const [route, entry] of histogram) {
        const inner = labelText({ route }).slice(1, -1);
        let cumulative = 0;
        BUCKETS.forEach((bound, i) => {
          cumulative += entry.buckets[i] ?? 0;
          out.push(`http_request_duration_seconds_bucket{${inner},le="${bound}"} ${cumulative}`);
        });
        out.push(`http_request_duration_seconds_bucket{${inner},le="+Inf"} ${entry.count}`);
        out.push(`http_request_duration_seconds_sum{${inner}} ${entry.sum}`);
        out.push(`http_request_duration_seconds_count{${inner}} ${entry.count}`);
      }
      for (const [name, help] of Object.entries(COUNTERS)) {
        out.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
        const rows = [...counters].filter(([key]) => key === name || key.startsWith(`${name}{`));
        if (rows.length === 0) out.push(`${name} 0`);
        for (const [key, n] of rows) out.push(`${key} ${n}`);
      }
      return `${out.join("\n")}\n`;
    },
  };
};
