/**
 * The edge's cost per GET /api/status in one process, no sockets and no load generator: the
 * real app (memory store, the real stdout logger, the Host guard on as a loopback bind has it)
 * called through `app.fetch` in a loop. Run with stdout to /dev/null (the access lines go there,
 * as the status benchmark's); figures go to stderr.
 *
 *   bun dev/bench/edge-cost.ts [seconds per round] [rounds] [another checkout's root...] > /dev/null
 *
 * With other roots (e.g. a `git archive` of main), their apps are built in the same process and
 * measured in alternating rounds, so every figure comes from the same moment of this shared
 * machine; the best round of each counts (the machine only ever slows a round down).
 * `requestOnly` is the harness's own cost (a Request and a bare Response per call).
 */
import { resolve } from "node:path";
import { statusAppAt } from "./servers/status-app-at.ts";

const seconds = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 5);
const roots = [resolve(import.meta.dir, "../.."), ...process.argv.slice(4).map((root) => resolve(root))];

/** The status app of the checkout at `root`, as dev/bench/servers/status-app.ts builds it. */
const appAt = (root: string) => statusAppAt(root, { host: "127.0.0.1" });

// As Bun.serve hands them over: a Host header, a fresh Request per call; 256 client addresses.
const url = "http://127.0.0.1:3000/api/status";
const init = { headers: { host: "127.0.0.1:3000", "user-agent": "bench" } };
const peers = Array.from({ length: 256 }, (_, i) => ({ remoteAddress: `203.0.113.${i}` }));

/** Requests per second of `call` over about `seconds`. */
const rate = async (call: (i: number) => Response | Promise<Response>): Promise<number> => {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  while (performance.now() < until) {
    for (let i = 0; i < 1000; i++) {
      const response = call(done + i);
      const settled = response instanceof Promise ? await response : response;
      if (settled.status !== 200) throw new Error(`status ${settled.status}`);
    }
    done += 1000;
  }
  return done / ((performance.now() - started) / 1000);
};

const built = await Promise.all(roots.map(appAt));
const calls: Record<string, (i: number) => Response | Promise<Response>> = {
  requestOnly: () => {
    new Request(url, init);
    return new Response("{}");
  },
};
built.forEach(({ app }, n) => {
  calls[n === 0 ? "this" : (roots[n] ?? `root ${n}`)] = (i) =>
    app.fetch(new Request(url, init), peers[i & 255]);
});
for (const call of Object.values(calls)) await rate(call); // warm-up: JIT, body caches, label maps
const best: Record<string, number> = {};
for (let round = 0; round < rounds; round++)
  for (const [name, call] of Object.entries(calls)) best[name] = Math.max(best[name] ?? 0, await rate(call));
for (const { logger } of built) logger.flush();
const harness = 1e6 / (best.requestOnly ?? Number.NaN);
const figures = Object.entries(best)
  .filter(([name]) => name !== "requestOnly")
  .map(([name, perSecond]) => ({
    app: name,
    rps: Math.round(perSecond),
    usPerRequest: Number((1e6 / perSecond).toFixed(3)),
    usBeyondHarness: Number((1e6 / perSecond - harness).toFixed(3)),
  }));
console.error(JSON.stringify({ harnessUs: Number(harness.toFixed(3)), figures }, null, 1));

/**
 * The two parts this bench was written for, alone, per root: an access line (written to
 * stdout with its batch) and a Host guard verdict, in ns per call, best of `rounds`.
 */
const PART_CALLS = 500_000;
const partsAt = async (root: string) => {
  const { makeLogger } = await import(`${root}/src/observability/log.ts`);
  const { hostGuard } = await import(`${root}/src/http/edge/host-guard.ts`);
  const logger = makeLogger();
  const guard = hostGuard({
    bindHost: "127.0.0.1",
    publicOrigin: undefined,
    allowedHosts: [],
    allowedOrigins: [],
  });
  const requests = Array.from({ length: 256 }, () => new Request(url, init));
  // Built beforehand, as the edge has its fields at hand: the figure is the logger's alone.
  const entries = Array.from({ length: 1024 }, (_, i) => ({
    requestId: `k2f9x0ab-${i}`,
    method: "GET",
    path: "/api/status",
    pathJson: '"/api/status"',
    status: 200,
    ms: 0.1,
    identity: `203.0.113.${i & 255}`,
  }));
  return {
    accessLine: (i: number) => logger.access(entries[i & 1023]),
    hostVerdict: (i: number) => guard(requests[i & 255], "/api/status"),
    flush: () => logger.flush(),
  };
};
const parts = await Promise.all(roots.map(partsAt));
const nsPer = (call: (i: number) => unknown, flush: () => void) => {
  const started = performance.now();
  for (let i = 0; i < PART_CALLS; i++) call(i);
  flush();
  return ((performance.now() - started) * 1e6) / PART_CALLS;
};
const bestNs: Record<string, number> = {};
for (let round = 0; round < rounds + 1; round++)
  parts.forEach((part, n) => {
    for (const name of ["accessLine", "hostVerdict"] as const) {
      const ns = nsPer(part[name], part.flush);
      const key = `${n === 0 ? "this" : roots[n]}: ${name}`;
      if (round > 0) bestNs[key] = Math.min(bestNs[key] ?? Number.POSITIVE_INFINITY, Number(ns.toFixed(1)));
    }
  });
console.error(JSON.stringify({ nsPerCall: bestNs }, null, 1));
for (const { runtime } of built) await runtime.dispose();
process.exit(0);
