/**
 * The store beyond one Redis node, measured on loopback (`npm run bench -- redis-topologies`, on
 * demand): everything started here and stopped here, also on failure.
 *
 * 1. Throughput: GET /api/status and POST /api/chat of one and of two real service processes
 *    (`bun dev/demo/main.ts`: demo index, extractive answers, a configured local chain) on one
 *    Redis and on a 3-primary Redis Cluster, all four set-ups up at once and measured in turn
 *    (BENCH_ROUNDS rounds, best of each), two wrk processes of 16 connections each (both on the
 *    one instance, or one per instance), so the load generator costs the same on every side.
 * 2. Failover: one instance through Sentinel (a primary, a replica, one Sentinel with the test
 *    settings: down-after-milliseconds 1000), a steady light load of status and chat requests,
 *    the primary killed (SIGKILL): the time from the kill to the first 200 of a request sent
 *    after it, the 503s meanwhile and any other error status. Repeated, then once with
 *    production's down-after-milliseconds (5000, docs/deployment.md).
 * 3. WAIT: POST /api/payment (fresh transfers on the local chain) of two in-process apps on the
 *    same primary with its replica, one with REDIS_WAIT_REPLICAS=0 and one with 1, interleaved.
 *
 * The machine may run other work: before each measurement the bench waits (up to a minute)
 * until the CPU is quiet, the other processes using less than half a core.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import { createApp } from "../../src/app.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import { appLayer, defaultConfig } from "../../src/runtime/app-layer.ts";
import { chainEnv, startTestChain, type TestChain } from "../../test/support/localnet.ts";
import { rawClient, startRedisServer } from "../../test/support/redis-server.ts";
import {
  type ClusterSetup,
  SENTINEL_MASTER,
  type SentinelSetup,
  startCluster,
  startSentinelSetup,
} from "../../test/support/redis-topologies.ts";
import { type ServiceProcess, startService } from "../../test/support/service-process.ts";
import { makeSwitches, scriptedRetriever } from "../../test/support/test-layers.ts";
import { BENCH_OUTPUT_TAIL } from "./bench-service.ts";
import { type Figure, record } from "./report.ts";
import { fmt, summary } from "./stats.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FAILOVERS = Number(process.env.BENCH_FAILOVERS ?? 3);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 300);
/** Sentinel's down-after-milliseconds in the tests' set-up, and in docs/deployment.md's production one. */
const TEST_DOWN_AFTER_MS = 1000;
const PRODUCTION_DOWN_AFTER_MS = 5000;
const CONNECTIONS_PER_WRK = 16;

const QUESTIONS = [
  "How do I pay for more questions?",
  "How many free questions do I get?",
  "How do I embed the chat widget?",
  "How do I run the service with Redis?",
  "What does a question cost?",
  "How do I configure the service?",
];

// --- a quiet machine ------------------------------------------------------------------------

/** CPU time used by the whole machine over `ms`, in cores. */
const busyCores = async (ms = 1000): Promise<number> => {
  const read = () => {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { idle, total: fields.reduce((sum, value) => sum + value, 0) };
  };
  const before = read();
  await Bun.sleep(ms);
  const after = read();
  const total = after.total - before.total;
  return total === 0 ? 0 : ((total - (after.idle - before.idle)) / total) * navigator.hardwareConcurrency;
};

/**
 * CPU time (clock ticks) of the whole machine: in all, and busy in processes (user, nice, system)
 * or taken by the hypervisor (steal); interrupt time (the loopback traffic's softirqs) is no
 * process's and is left out.
 */
const machineTicks = () => {
  const f = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").split(/\s+/).slice(1).map(Number);
  const total = f.reduce((sum, value) => sum + value, 0);
  return { busy: (f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[7] ?? 0), total };
};

/** CPU time (clock ticks) of this bench and every process it started, the exited ones included. */
const ownTicks = (): number => {
  const processes = new Map<number, { ppid: number; ticks: number; children: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, "utf8");
      const f = text
        .slice(text.lastIndexOf(")") + 2)
        .split(" ")
        .map(Number);
      processes.set(Number(name), {
        ppid: f[1] ?? 0,
        ticks: (f[11] ?? 0) + (f[12] ?? 0),
        children: (f[13] ?? 0) + (f[14] ?? 0),
      });
    } catch {
      // gone meanwhile
    }
  }
  let ticks = processes.get(process.pid)?.children ?? 0;
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of processes)
      if (!mine.has(pid) && mine.has(p.ppid)) {
        mine.add(pid);
        grew = true;
      }
  }
  for (const pid of mine) ticks += processes.get(pid)?.ticks ?? 0;
  return ticks;
};

/** `run`, and the cores other work used meanwhile (the machine's busy time less this bench's). */
const measured = async <A>(run: () => Promise<A>): Promise<{ result: A; others: number }> => {
  const [machine, own] = [machineTicks(), ownTicks()];
  const result = await run();
  const [machineAfter, ownAfter] = [machineTicks(), ownTicks()];
  const total = machineAfter.total - machine.total;
  const others = machineAfter.busy - machine.busy - (ownAfter - own);
  return { result, others: total === 0 ? 0 : Math.max(0, others / total) * navigator.hardwareConcurrency };
};
/** Cores of other work above which a measurement counts as disturbed. */
const DISTURBED = 0.25;

const uptime = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** How long a measurement waits for a quiet machine before it starts anyway (and says so). */
const QUIET_WAIT_MS = Number(process.env.BENCH_QUIET_WAIT_S ?? 60) * 1000;
/** Waits (at most QUIET_WAIT_MS) until the machine is quiet; what it waited, and a start on a busy machine, are counted. */
let waitedForQuiet = 0;
const startedBusy: string[] = [];
const whenQuiet = async (what: string) => {
  const started = performance.now();
  let busy = await busyCores();
  while (busy > 0.5 && performance.now() - started < QUIET_WAIT_MS) {
    console.log(`  (waiting: ${busy.toFixed(2)} cores busy, load average ${uptime()})`);
    busy = await busyCores(3000);
  }
  waitedForQuiet += performance.now() - started;
  if (busy > 0.5) startedBusy.push(`${what} (${busy.toFixed(2)} cores busy)`);
  console.log(`-- ${what} (before it: ${busy.toFixed(2)} cores busy, load average ${uptime()})`);
};

// --- wrk ------------------------------------------------------------------------------------

interface Load {
  /** Cores other work used during the measurement. */
  readonly others: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly ok: number;
  readonly failed: number;
}

/** A wrk script: status GETs, or chat POSTs cycling the questions; counts 2xx and the rest. */
const wrkScript = (chat: boolean) => `
local questions = {${QUESTIONS.map((q) => JSON.stringify(q)).join(", ")}}
local n = 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) ok = 0 failed = 0 end
${
  chat
    ? `function request()
  n = n + 1
  return wrk.format("POST", "/api/chat", {["Content-Type"] = "application/json"},
    '{"message":"' .. questions[(n % #questions) + 1] .. '"}')
end`
    : ""
}
function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1 else failed = failed + 1 end
end
function done(summary, latency, requests)
  local o, f = 0, 0
  for _, thread in ipairs(threads) do o = o + thread:get("ok") f = f + thread:get("failed") end
  io.write(string.format("OK %d\\nFAILED %d\\n", o, f + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  io.write(string.format("P50US %d\\nP95US %d\\n", latency:percentile(50), latency:percentile(95)))
  io.write(string.format("RPS %f\\n", summary.requests / (summary.duration / 1e6)))
end
`;

const work = mkdtempSync(join(tmpdir(), "redis-topologies-bench-"));
mkdirSync(join(work, "service"));
const scripts = { status: join(work, "status.lua"), chat: join(work, "chat.lua") };
writeFileSync(scripts.status, wrkScript(false));
writeFileSync(scripts.chat, wrkScript(true));

const wrk = async (url: string, script: string): Promise<Load> => {
  const proc = Bun.spawn(["wrk", "-t1", `-c${CONNECTIONS_PER_WRK}`, `-d${SECONDS}s`, "-s", script, url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const text = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
  const number = (label: string) =>
    Number(new RegExp(`^${label} ([\\d.]+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  return {
    others: 0,
    rps: number("RPS"),
    p50Ms: number("P50US") / 1000,
    p95Ms: number("P95US") / 1000,
    ok: number("OK"),
    failed: number("FAILED"),
  };
};

/** Two wrk processes at once, one per URL given (the same URL twice for one instance): req/s summed, the slower latencies. */
const loadBoth = async (urls: readonly [string, string], script: string): Promise<Load> => {
  const [a, b] = await Promise.all(urls.map((url) => wrk(url, script)));
  return {
    others: 0,
    rps: a!.rps + b!.rps,
    p50Ms: Math.max(a!.p50Ms, b!.p50Ms),
    p95Ms: Math.max(a!.p95Ms, b!.p95Ms),
    ok: a!.ok + b!.ok,
    failed: a!.failed + b!.failed,
  };
};

// --- the set-ups ----------------------------------------------------------------------------

const stops: Array<() => Promise<unknown>> = [];
/** The local chain, started first and stopped last. */
let chain: TestChain | undefined;
let chainStopped: Promise<unknown> | undefined;
const stopChain = () => {
  chainStopped ??= chain?.stop() ?? Promise.resolve();
  return chainStopped;
};
/** Stops what was started, last first; a second call (a signal during a stop) waits for the first. */
let stopping: Promise<void> = Promise.resolve();
const stopAll = (): Promise<void> => {
  stopping = stopping.then(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error) => console.error(error));
  });
  return stopping;
};
// Interrupted (Ctrl-C, a kill): every process started here is stopped before the bench exits.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void stopAll().finally(async () => {
      await stopChain();
      rmSync(work, { recursive: true, force: true });
      process.exit(130);
    });
  });

const serviceEnv = (chain: TestChain, redis: Record<string, string>) => ({
  ...chainEnv(chain),
  RATE_LIMIT_FREE_QUERIES: "1000000",
  PROTECTION_RATE_LIMIT: "1000000",
  ...redis,
});

/** One service process in `cwd` (where the demo index is built once and then read). */
const instance = async (cwd: string, env: Record<string, string>): Promise<ServiceProcess> => {
  const service = await startService({ cwd, env, outputTail: BENCH_OUTPUT_TAIL, readyTimeoutMs: 60_000 });
  stops.push(() => service.stop());
  return service;
};

const checkQuestions = async (url: string) => {
  for (const message of QUESTIONS) {
    const response = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message }),
    });
    const body = (await response.json()) as { success?: boolean; sources?: unknown[] };
    if (response.status !== 200 || body.success !== true || (body.sources?.length ?? 0) === 0)
      throw new Error(
        `"${message}" is not answered with sources: ${response.status} ${JSON.stringify(body).slice(0, 200)}`,
      );
  }
};

type Side = "one Redis" | "cluster";
type Count = 1 | 2;
type Endpoint = "status" | "chat";
const key = (side: Side, count: Count, endpoint: Endpoint) => `${side}/${count}/${endpoint}`;

const throughput = async (chain: TestChain) => {
  const redis = await startRedisServer();
  stops.push(() => redis.stop());
  const cluster: ClusterSetup = await startCluster();
  stops.push(() => cluster.stop());
  const dir = join(work, "service");
  const urls: Record<Side, [string, string]> = { "one Redis": ["", ""], cluster: ["", ""] };
  for (const [side, env] of [
    ["one Redis", { REDIS_URL: redis.url }],
    ["cluster", { REDIS_CLUSTER_NODES: cluster.nodes }],
  ] as const) {
    for (const i of [0, 1]) {
      const service = await instance(dir, serviceEnv(chain, env));
      urls[side][i] = service.url;
      await checkQuestions(service.url);
    }
  }
  const best: Record<string, Load> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const endpoint of ["status", "chat"] as const)
      for (const side of ["one Redis", "cluster"] as const)
        for (const count of [1, 2] as const) {
          const [first, second] = urls[side];
          const target: [string, string] = count === 1 ? [first, first] : [first, second];
          const path = endpoint === "status" ? "/api/status" : "/api/chat";
          await whenQuiet(`round ${round + 1}: ${endpoint}, ${count} instance(s), ${side}`);
          const { result, others } = await measured(() =>
            loadBoth([`${target[0]}${path}`, `${target[1]}${path}`], scripts[endpoint]),
          );
          const load = { ...result, others };
          console.log(
            `   ${load.rps.toFixed(0)} req/s   p50 ${fmt(load.p50Ms)}   p95 ${fmt(load.p95Ms)}   2xx ${load.ok}   other ${load.failed}   other work ${others.toFixed(2)} cores`,
          );
          const k = key(side, count, endpoint);
          const previous = best[k];
          // The best round of those other work left alone; a disturbed one only when all were.
          const better = (a: Load, b: Load) =>
            a.others <= DISTURBED !== b.others <= DISTURBED ? a.others <= DISTURBED : a.rps > b.rps;
          best[k] =
            previous === undefined
              ? load
              : {
                  ...(better(load, previous) ? load : previous),
                  ok: previous.ok + load.ok,
                  failed: previous.failed + load.failed,
                };
        }
  return best;
};

// --- failover -------------------------------------------------------------------------------

interface Failover {
  readonly downAfterMs: number;
  readonly promotedMs: number;
  readonly firstOk: Record<Endpoint, number>;
  readonly unavailable: number;
  readonly other: ReadonlyArray<string>;
  readonly requests: number;
}

const failover = async (chain: TestChain, downAfterMs: number): Promise<Failover> => {
  const setup: SentinelSetup = await startSentinelSetup();
  stops.push(() => setup.stop());
  try {
    if (downAfterMs !== TEST_DOWN_AFTER_MS) {
      const sentinel = rawClient(`redis://${setup.sentinels}`);
      await sentinel.call("SENTINEL", "SET", SENTINEL_MASTER, "down-after-milliseconds", String(downAfterMs));
      sentinel.disconnect();
    }
    const service = await startService({
      cwd: join(work, "service"),
      env: serviceEnv(chain, { REDIS_SENTINELS: setup.sentinels, REDIS_SENTINEL_MASTER: SENTINEL_MASTER }),
      outputTail: BENCH_OUTPUT_TAIL,
      readyTimeoutMs: 60_000,
    });
    stops.push(() => service.stop());
    let killedAt = Number.POSITIVE_INFINITY;
    const firstOk: Record<Endpoint, number> = { status: Number.NaN, chat: Number.NaN };
    let unavailable = 0;
    let requests = 0;
    const other: string[] = [];
    let running = true;
    /** A light steady load: one request of each kind at a time, 50 ms apart. */
    const loop = async (endpoint: Endpoint) => {
      let n = 0;
      while (running) {
        const sentAt = performance.now();
        const status = await fetch(
          `${service.url}/api/${endpoint}`,
          endpoint === "status"
            ? { signal: AbortSignal.timeout(10_000) }
            : {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ message: QUESTIONS[n++ % QUESTIONS.length] }),
                signal: AbortSignal.timeout(10_000),
              },
        ).then(
          async (response) => {
            await response.arrayBuffer();
            return String(response.status);
          },
          (error: unknown) => `no answer (${String(error).slice(0, 60)})`,
        );
        if (sentAt >= killedAt) {
          requests++;
          if (status === "200") {
            if (Number.isNaN(firstOk[endpoint])) firstOk[endpoint] = performance.now() - killedAt;
          } else if (status === "503") unavailable++;
          else other.push(`${endpoint} ${status}`);
        }
        await Bun.sleep(50);
      }
    };
    const loops = [loop("status"), loop("chat")];
    try {
      await Bun.sleep(2000);
      const oldPort = await setup.primaryPort();
      await setup.primary.down("SIGKILL");
      killedAt = performance.now();
      const promotedMs = await setup
        .waitForPromotion(oldPort, 60_000)
        .then(() => performance.now() - killedAt);
      const deadline = performance.now() + 60_000;
      while ((Number.isNaN(firstOk.status) || Number.isNaN(firstOk.chat)) && performance.now() < deadline)
        await Bun.sleep(20);
      return { downAfterMs, promotedMs, firstOk: { ...firstOk }, unavailable, other, requests };
    } finally {
      running = false;
      await Promise.all(loops);
    }
  } finally {
    await stopAll();
  }
};

// --- WAIT on a paid answer ------------------------------------------------------------------

const paidWithWait = async (chain: TestChain) => {
  const setup: SentinelSetup = await startSentinelSetup();
  stops.push(() => setup.stop());
  const logger = makeLogger(() => undefined);
  const paidChain = {
    network: "localnet" as const,
    usdcMint: chain.mint,
    wallet: chain.serviceWallet,
    rpcUrl: chain.url,
    walletSecretKey: undefined,
  };
  const serve = async (waitReplicas: number) => {
    const config = defaultConfig({
      // Every payment is a lookup of a transfer not seen before: the per-minute lookup ceilings out of the way.
      ceilings: {
        ...defaultConfig().ceilings,
        "protection-limit": 1_000_000,
        "chain-lookups": 10_000_000,
        "chain-lookups-per-client": 1_000_000,
      },
      redis: { kind: "url", url: Redacted.make(setup.primary.url) },
      redisWaitReplicas: waitReplicas,
    });
    const runtime = ManagedRuntime.make(
      appLayer(config, paidChain, logger, { retrieval: scriptedRetriever(makeSwitches()) }).pipe(Layer.orDie),
    );
    await runtime.runPromise(Effect.void);
    const app = createApp({ runtime, config, logger, metrics: makeMetrics() });
    // Each payment from a client of its own (the bench's header), so no client's daily cap is reached.
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => app.fetch(req, { remoteAddress: req.headers.get("x-bench-client") ?? "127.0.0.1" }),
    });
    stops.push(async () => {
      server.stop(true);
      await runtime.dispose();
    });
    return server.url.href;
  };
  // A second app without the wait: the run-to-run noise of the same path (an A/A comparison).
  const urls = { 0: await serve(0), 1: await serve(1), control: await serve(0) };
  console.log(`preparing ${PAYMENTS * 3} transfers on the local chain...`);
  const signatures: string[] = [];
  for (let i = 0; i < PAYMENTS * 3 + 60; i++) signatures.push(await chain.sendUsdc({ units: 10_000n }));
  const pay = async (url: string, signature: string, i: number) => {
    const started = performance.now();
    const response = await fetch(`${url}api/payment`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-bench-client": `10.9.${i >> 8}.${i & 255}` },
      body: JSON.stringify({ signature, amount: 0.01, token: "USDC" }),
    });
    if (response.status !== 200)
      throw new Error(`payment ${i} failed: ${response.status} ${await response.text()}`);
    return performance.now() - started;
  };
  // Warm both, then interleave them (which goes first alternates) so machine noise hits both alike.
  for (let i = 0; i < 20; i++) {
    await pay(urls[0], signatures[i]!, i);
    await pay(urls[1], signatures[20 + i]!, 20 + i);
    await pay(urls.control, signatures[40 + i]!, 40 + i);
  }
  await whenQuiet(`POST /api/payment, WAIT 0 vs 1 vs 0 again, ${PAYMENTS} each`);
  const samples: Record<0 | 1 | "control", number[]> = { 0: [], 1: [], control: [] };
  const orders = [
    [0, 1, "control"],
    [1, "control", 0],
    ["control", 0, 1],
  ] as const;
  const { others } = await measured(async () => {
    for (let i = 0; i < PAYMENTS; i++) {
      const a = 60 + 3 * i;
      for (const [j, app] of orders[i % 3]!.entries())
        samples[app].push(await pay(urls[app], signatures[a + j]!, a + j));
    }
  });
  return {
    without: summary(samples[0]),
    with: summary(samples[1]),
    control: summary(samples.control),
    others,
  };
};

// --- the run --------------------------------------------------------------------------------

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const signed = (ms: number) => `${ms >= 0 ? "+" : ""}${fmt(ms)}`;

console.log(`load average at start: ${uptime()}`);
chain = await startTestChain();
try {
  const paid = await paidWithWait(chain);
  await stopAll();
  console.log(
    `   WAIT 0: p50 ${fmt(paid.without.p50)} p95 ${fmt(paid.without.p95)}   WAIT 1: p50 ${fmt(paid.with.p50)} p95 ${fmt(paid.with.p95)}`,
  );

  const load = await throughput(chain);
  await stopAll();

  const failovers: Failover[] = [];
  for (let i = 0; i < FAILOVERS; i++) {
    await whenQuiet(`failover ${i + 1} of ${FAILOVERS} (down-after-milliseconds ${TEST_DOWN_AFTER_MS})`);
    const result = await failover(chain, TEST_DOWN_AFTER_MS);
    console.log(`   ${JSON.stringify(result)}`);
    failovers.push(result);
  }
  await whenQuiet(`failover with production's down-after-milliseconds ${PRODUCTION_DOWN_AFTER_MS}`);
  const production = await failover(chain, PRODUCTION_DOWN_AFTER_MS);
  console.log(`   ${JSON.stringify(production)}`);

  const get = (side: Side, count: Count, endpoint: Endpoint) => load[key(side, count, endpoint)]!;
  const shown = (l: Load) => `${l.rps.toFixed(0)} req/s, p50 ${fmt(l.p50Ms)}, p95 ${fmt(l.p95Ms)}`;
  const figures: Figure[] = [];
  for (const endpoint of ["status", "chat"] as const) {
    const what = endpoint === "status" ? "GET /api/status" : "POST /api/chat";
    for (const side of ["one Redis", "cluster"] as const) {
      const one = get(side, 1, endpoint);
      const two = get(side, 2, endpoint);
      const ratio = two.rps / one.rps;
      figures.push({
        measure: `${what}, ${side}: two instances / one`,
        value: shown(two),
        baseline: shown(one),
        comparison: `${ratio.toFixed(2)}x`,
        ...(endpoint === "status" && side === "one Redis" ? { goal: ">= 1.50x", met: ratio >= 1.5 } : {}),
      });
    }
    for (const count of [1, 2] as const) {
      const one = get("one Redis", count, endpoint);
      const cluster = get("cluster", count, endpoint);
      const ratio = cluster.rps / one.rps;
      figures.push({
        measure: `${what}, ${count === 1 ? "one instance" : "two instances"}: cluster / one Redis`,
        value: shown(cluster),
        baseline: shown(one),
        comparison: `${ratio.toFixed(2)}x`,
        ...(endpoint === "status" && count === 2 ? { goal: ">= 0.90x", met: ratio >= 0.9 } : {}),
      });
    }
  }
  const disturbed = Object.entries(load)
    .filter(([, l]) => l.others > DISTURBED)
    .map(([k, l]) => `${k.replace(/\//g, ", ")} (${l.others.toFixed(2)} cores)`);
  const failed = Object.values(load).reduce((sum, l) => sum + l.failed, 0);
  const served = Object.values(load).reduce((sum, l) => sum + l.ok, 0);
  figures.push({
    measure: "throughput runs: non-2xx answers and socket errors",
    value: `${failed} of ${served + failed}`,
    goal: "none",
    met: failed === 0,
  });
  const waits = failovers.map((f) => Math.max(f.firstOk.status, f.firstOk.chat));
  const wait = median(waits);
  figures.push(
    {
      measure: `failover (down-after ${TEST_DOWN_AFTER_MS} ms): kill to first 200 (status / chat), each run`,
      value: failovers.map((f) => `${s(f.firstOk.status)} / ${s(f.firstOk.chat)}`).join("; "),
      baseline: `promoted after ${failovers.map((f) => s(f.promotedMs)).join("; ")}`,
      comparison: `median ${s(wait)}`,
      goal: "<= 10 s",
      met: waits.every((w) => !Number.isNaN(w)) && wait <= 10_000,
    },
    {
      measure: `failover (down-after ${TEST_DOWN_AFTER_MS} ms): 503s meanwhile, each run`,
      value: failovers.map((f) => `${f.unavailable} of ${f.requests}`).join("; "),
    },
    {
      measure: "failover: answers other than 200 and 503 (500s, no answer)",
      value: [...failovers, production].flatMap((f) => f.other).join(", ") || "none",
      goal: "none",
      met: [...failovers, production].every((f) => f.other.length === 0),
    },
    {
      measure: `failover (down-after ${PRODUCTION_DOWN_AFTER_MS} ms, production's): kill to first 200 (status / chat)`,
      value: `${s(production.firstOk.status)} / ${s(production.firstOk.chat)}`,
      baseline: `promoted after ${s(production.promotedMs)}`,
      comparison: `${production.unavailable} 503s of ${production.requests}`,
    },
    {
      measure: "POST /api/payment p95: REDIS_WAIT_REPLICAS=1 / 0",
      value: fmt(paid.with.p95),
      baseline: fmt(paid.without.p95),
      comparison: signed(paid.with.p95 - paid.without.p95),
      goal: "<= +2 ms",
      met: paid.with.p95 - paid.without.p95 <= 2,
    },
    {
      measure: "POST /api/payment p95, the noise: REDIS_WAIT_REPLICAS=0 on a second app / 0",
      value: fmt(paid.control.p95),
      baseline: fmt(paid.without.p95),
      comparison: signed(paid.control.p95 - paid.without.p95),
    },
    {
      measure: "POST /api/payment p50: REDIS_WAIT_REPLICAS=1 / 0",
      value: fmt(paid.with.p50),
      baseline: fmt(paid.without.p50),
      comparison: signed(paid.with.p50 - paid.without.p50),
    },
  );
  for (const figure of figures)
    console.log(
      `  ${figure.measure}: ${figure.value} | ${figure.baseline ?? ""} | ${figure.comparison ?? ""}`,
    );
  record("redis-topologies", {
    title: "Redis topologies (on demand): instances, cluster, failover, WAIT",
    method: `Figures from a 2-core machine (wrk, the services and every Redis share both cores, so two instances cannot double anything here; the bench waits for the CPU to be quiet before each measurement). Throughput: real service processes (\`bun dev/demo/main.ts\`: demo index, extractive answers, a configured local chain; chat cycling ${QUESTIONS.length} questions) on one Redis and on a 3-primary cluster, loaded by two wrk processes of 1 thread and ${CONNECTIONS_PER_WRK} connections each (both on the one instance, or one per instance), ${SECONDS} s, best of ${ROUNDS} rounds taken in turn; p50/p95 of the slower wrk. Failover: one instance through Sentinel (a primary, a replica, one Sentinel, as the tests start them), status and chat requests each 50 ms apart, the primary killed with SIGKILL; from the kill to the first 200 of a request sent after it. WAIT: ${PAYMENTS} POST /api/payment each (fresh transfers on the local chain, the servers' AOF fsynced on every write as in production) on three in-process apps on the same primary with its replica, interleaved: REDIS_WAIT_REPLICAS=1, 0, and 0 again (the noise).`,
    figures,
    notes: [
      `Production's down-after-milliseconds (${PRODUCTION_DOWN_AFTER_MS}, docs/deployment.md) adds its difference from the test's (${TEST_DOWN_AFTER_MS}) to the wait: Sentinel first waits that long to call the primary down.`,
      "On the cluster every status and every question reads and writes the money keys of one hash slot (one primary): the cluster spreads the caches, not that path.",
      `Other work on the machine during a throughput measurement (the machine's CPU time less the bench's): the figures above are the best undisturbed round (other work <= ${DISTURBED} cores)${disturbed.length === 0 ? "; every figure had one" : `, except ${disturbed.join("; ")}`}. During the ${PAYMENTS * 3} payments: ${paid.others.toFixed(2)} cores.`,
      startedBusy.length === 0
        ? `Every measurement started on a quiet machine (the bench waited ${s(waitedForQuiet)} in all for one).`
        : `Started on a busy machine after ${s(QUIET_WAIT_MS)} of waiting (other work): ${startedBusy.join("; ")}.`,
    ],
  });
} finally {
  await stopAll();
  await stopChain();
  rmSync(work, { recursive: true, force: true });
  if (waitedForQuiet > 5000) console.log(`waited ${s(waitedForQuiet)} in all for a quiet machine`);
}
