/**
 * GET /api/status of the real app against bare Hono baselines, side by side in one run:
 * memory store vs hello-world, Redis store vs a route doing one Redis GET. Prints req/s,
 * p99 and the ratios (goal: status >= 0.8x its baseline's req/s). Loopback only; stops itself.
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

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
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
  const url = `http://127.0.0.1:${port}/api/status`;
  await waitFor(async () => (await fetch(url)).ok, 15_000, script);
  return { url, stop: () => proc.kill() };
};

/** Alternates the two servers ROUNDS times so drift on the machine hits both alike; keeps the best round of each. */
const compare = async (name: string, baseline: { url: string }, subject: { url: string }) => {
  const best = (a: LoadResult | undefined, b: LoadResult) => (a === undefined || b.rps > a.rps ? b : a);
  let base: LoadResult | undefined;
  let app: LoadResult | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    base = best(base, await runWrk(baseline.url, LOAD));
    app = best(app, await runWrk(subject.url, LOAD));
  }
  if (base === undefined || app === undefined) throw new Error("no rounds ran");
  const row = (label: string, r: LoadResult) =>
    `  ${label.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms   non-2xx ${r.errors}`;
  console.log(`\n${name}`);
  console.log(row("baseline (bare Hono)", base));
  console.log(row("GET /api/status (the app)", app));
  console.log(
    `  ratio req/s ${(app.rps / base.rps).toFixed(2)}x   p99 +${(app.p99Ms - base.p99Ms).toFixed(2)} ms   (goal >= 0.80x)`,
  );
  const sameMoment: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [b, a] = await Promise.all([runWrk(baseline.url, LOAD), runWrk(subject.url, LOAD)]);
    sameMoment.push(a.rps / b.rps);
  }
  console.log(
    `  same-moment ratio (both loaded at once on one core, ${ROUNDS} rounds): ${sameMoment.map((r) => `${r.toFixed(2)}x`).join(" ")}`,
  );
  return app.rps / base.rps;
};

/** BENCH_STORES=memory or =redis runs one side only (default: both). */
const STORES = (process.env.BENCH_STORES ?? "memory,redis").split(",");
console.log(
  `wrk ${LOAD.threads} thread, ${LOAD.connections} connections, ${SECONDS} s x ${ROUNDS} rounds each, loopback`,
);
if (STORES.includes("memory")) {
  const servers = await Promise.all([serve("bare-hono.ts", []), serve("status-app.ts", [])]);
  try {
    await compare("Memory store", servers[0], servers[1]);
  } finally {
    for (const server of servers) server.stop();
  }
}
if (STORES.includes("redis")) {
  const redis = await startRedisServer();
  const servers = await Promise.all([
    serve("bare-hono.ts", [redis.url]),
    serve("status-app.ts", [redis.url]),
  ]);
  try {
    await compare("Redis store (baseline does one Redis GET)", servers[0], servers[1]);
  } finally {
    for (const server of servers) server.stop();
    await redis.stop();
  }
}
