/** Runs wrk against a URL and reads requests/s and latency percentiles from its report. */
export interface LoadResult {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
}

const toMs = (value: string, unit: string): number =>
  Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? Number.NaN);

export const runWrk = async (
  url: string,
  options: { seconds: number; connections: number; threads: number; wrap?: (command: string[]) => string[] },
): Promise<LoadResult> => {
  const command = [
    "wrk",
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    url,
  ];
  const proc = Bun.spawn(options.wrap?.(command) ?? command, { stdout: "pipe", stderr: "pipe" });
  const text = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
  const latency = (pct: string) => {
    const match = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(text);
    return match === null ? Number.NaN : toMs(match[1] ?? "", match[2] ?? "");
  };
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1];
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? Number.NaN),
    p50Ms: latency("50"),
    p99Ms: latency("99"),
    errors: Number(errors ?? 0),
  };
};
