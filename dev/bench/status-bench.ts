/**
 * GET /api/status and GET /api/payment/info of the real app against bare Hono baselines, side
 * by side in one run: memory store vs a constant body, Redis store vs a route doing one Redis
 * GET. Prints req/s, p99 and the ratios, and records them for BENCHMARKS.md (floors, every
 * request through the router: status >= 0.6x on memory, >= 0.7x on Redis; payment info >= 0.6x
 * on memory). Loopback only; stops
 * itself.
 *
 * Two measures of the ratio. "Alternating": each server alone, rounds taking turns, best round
 * of each. "Same moment": both servers loaded at once on the one server core, so they split it
 * and every drift of this shared VM hits both alike; their req/s ratio is then the inverse ratio
 * of their CPU cost per request, repeatable to about +-2% where alternating rounds vary +-10%.
 */
import { join } from "node:path";
import { freePort, waitFor } from "../../test/support/free-port.ts";
import { startRedisServer } from "../../test/support/redis-server.ts";
import { type LoadResult, runWrk } from "./load.ts";
import { type Figure, ratio, record } from "./report.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Servers on the last CPU, wrk on the first (when taskset exists): less scheduler noise, alike for both sides. */
const pin = (side: "server" | "load", command: string[]) => {
  const cpus = navigator.hardwareConcurrency;
  if (Bun.which("taskset") === null || cpus < 2) return command;
  return ["taskset", "-c", String(side === "server" ? cpus - 1 : 0), ...command];
};
const LOAD = {
  seconds: SECONDS,
  connections: 32,
  threads: 1,
  wrap: (command: string[]) => pin("load", command),
};

const serve = async (script: string, args: string[]) => {
  const port = await freePort();
  const proc = Bun.spawn(
    pin("server", [process.execPath, join(import.meta.dir, "servers", script), String(port), ...args]),
    {
      stdout: "ignore",
      stderr: "inherit",
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/api/status`)).ok, 15_000, script);
  return { url, stop: () => proc.kill() };
};

interface Compared {
  readonly base: LoadResult;
  readonly app: LoadResult;
  readonly sameMoment: ReadonlyArray<number>;
}

/**
 * `path` on both servers: alternating rounds (best of each, so drift hits both alike), then
 * rounds with both loaded at once.
 */
const compare = async (name: string, path: string, baseline: { url: string }, subject: { url: string }) => {
  const best = (a: LoadResult | undefined, b: LoadResult) => (a === undefined || b.rps > a.rps ? b : a);
  let base: LoadResult | undefined;
  let app: LoadResult | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    base = best(base, await runWrk(baseline.url + path, LOAD));
    app = best(app, await runWrk(subject.url + path, LOAD));
  }
  if (base === undefined || app === undefined) throw new Error("no rounds ran");
  // A refusal is cheaper than an answer: a ratio over non-2xx answers would flatter the app.
  if (base.errors > 0 || app.errors > 0)
    throw new Error(`${path}: non-2xx answers under load (baseline ${base.errors}, app ${app.errors})`);
  const row = (label: string, r: LoadResult) =>
    `  ${label.padEnd(32)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms   non-2xx ${r.errors}`;
  console.log(`\n${name}`);
  console.log(row("baseline (bare Hono)", base));
  console.log(row(`GET ${path} (the app)`, app));
  console.log(
    `  alternating ratio ${ratio(app.rps, base.rps)}   p99 +${(app.p99Ms - base.p99Ms).toFixed(2)} ms`,
  );
  const sameMoment: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [b, a] = await Promise.all([runWrk(baseline.url + path, LOAD), runWrk(subject.url + path, LOAD)]);
    sameMoment.push(a.rps / b.rps);
  }
  console.log(
    `  same-moment ratio (both loaded at once on one core, ${ROUNDS} rounds): ${sameMoment.map((r) => `${r.toFixed(2)}x`).join(" ")}`,
  );
  return { base, app, sameMoment } satisfies Compared;
};

/** The figures of one comparison; the goal is judged on the median same-moment ratio. */
const figures = (what: string, baselineName: string, result: Compared, goal: number): Figure[] => {
  const sorted = [...result.sameMoment].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = Number.isInteger(middle)
    ? ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
    : (sorted[Math.floor(middle)] ?? Number.NaN);
  return [
    {
      measure: `${what}: req/s, same moment (rounds)`,
      value: result.sameMoment.map((r) => `${r.toFixed(2)}x`).join(", "),
      baseline: baselineName,
      comparison: `median ${median.toFixed(2)}x`,
      goal: `>= ${goal.toFixed(2)}x`,
      met: median >= goal,
    },
    {
      measure: `${what}: req/s, alternating (best round)`,
      value: result.app.rps.toFixed(0),
      baseline: result.base.rps.toFixed(0),
      comparison: ratio(result.app.rps, result.base.rps),
    },
    {
      measure: `${what}: p99 latency`,
      value: `${result.app.p99Ms.toFixed(2)} ms`,
      baseline: `${result.base.p99Ms.toFixed(2)} ms`,
      comparison: `+${(result.app.p99Ms - result.base.p99Ms).toFixed(2)} ms`,
    },
  ];
};

const METHOD = `wrk, ${LOAD.threads} thread, ${LOAD.connections} connections, ${SECONDS} s rounds, server and wrk pinned to different cores, the app with its real stdout logger (to /dev/null). "Same moment": both servers loaded at once on the one server core, so machine drift hits both alike (repeatable to about +-2%).`;

/** BENCH_STORES=memory or =redis runs one side only (default: both). */
const STORES = (process.env.BENCH_STORES ?? "memory,redis").split(",");
console.log(
  `wrk ${LOAD.threads} thread, ${LOAD.connections} connections, ${SECONDS} s x ${ROUNDS} rounds each, loopback`,
);
const statusFigures: Figure[] = [];
if (STORES.includes("memory")) {
  const [bare, app] = await Promise.all([serve("bare-hono.ts", []), serve("status-app.ts", [])]);
  try {
    const status = await compare("Memory store", "/api/status", bare, app);
    statusFigures.push(...figures("memory store", "bare Hono, constant body", status, 0.6));
    const info = await compare("Memory store", "/api/payment/info", bare, app);
    record("payment-info", {
      title: "GET /api/payment/info",
      method: METHOD,
      figures: figures("memory store", "bare Hono, constant body of the same size", info, 0.6),
    });
  } finally {
    bare.stop();
    app.stop();
  }
}
if (STORES.includes("redis")) {
  const redis = await startRedisServer();
  const servers = await Promise.all([
    serve("bare-hono.ts", [redis.url]),
    serve("status-app.ts", [redis.url]),
  ]);
  try {
    const status = await compare(
      "Redis store (baseline does one Redis GET)",
      "/api/status",
      servers[0],
      servers[1],
    );
    statusFigures.push(...figures("Redis store", "bare Hono + one ioredis GET", status, 0.7));
  } finally {
    for (const server of servers) server.stop();
    await redis.stop();
  }
}

if (statusFigures.length > 0)
  record("status", { title: "GET /api/status", method: METHOD, figures: statusFigures });
