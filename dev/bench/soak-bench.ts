/**
 * The soak test (on demand, not in CI: `npm run bench -- soak`) of the real service with the
 * owner's insights on. Every bounded structure a client can grow is first filled to its cap
 * (warm-up): a memo reference and a quota state per client address (BENCH_SOAK_IDENTITIES,
 * default 65,536, sent through X-Forwarded-For), and the answer ids and insight events, one
 * each per chat, to their 100,000 caps. Then BENCH_SOAK_SECONDS (default 600) of load, the
 * four endpoints in turn in 30-second slices (wrk, 8 connections), the service's RSS sampled
 * after each slice, and after each rotation of the four its live JS heap and RSS right after a
 * full GC (heap-probe.ts). Goals: peak sampled RSS <= 320 MB, RSS after a full GC
 * <= 256 MB at the end, no upward trend over the last 20 minutes (the after-GC slope, below
 * 0.5 MB/min), and the filled structures' live heap <= 48 MB; the live heap after a full GC is
 * still held to "flat" (within 10% of its reading right after the warm-up). BENCH_SOAK_RUNTIME picks the service's runtime:
 * `bun` (default), `bun-smol` (Bun's --smol) or `deno` (`npm run start:deno`'s command); each
 * is recorded in its own section, so they stand side by side.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_ANSWERS } from "../../adapters/store-memory/answers/memory-feedback.ts";
import { DEFAULT_INSIGHTS_BOUNDS } from "../../core/config/config-insights.ts";
import { envOf, readDockerfile } from "../../test/support/dockerfile.ts";
import { REPO_ROOT } from "../../test/support/service-process.ts";
import { rssMb, startBenchService } from "./bench-service.ts";
import { PROBED_ENTRY, PROBED_SMOL_ENTRY, probedDenoEntry, readHeap } from "./heap-reading.ts";
import { record } from "./report.ts";
import { slope } from "./stats.ts";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const IDENTITIES = Number(process.env.BENCH_SOAK_IDENTITIES ?? 65_536);
const SLICE = Math.min(30, SECONDS);
/** The goals: a 512 MB container holds the load with room, and the state stays small. */
const GOALS = { rssAfterGc: 256, peakRss: 320, trendMbPerMin: 0.5, filledHeap: 48 } as const;
/** "No upward trend" is judged on the slope of the last 20 minutes' readings after a full GC. */
const TREND_SECONDS = 1200;
/** The bench's own variables that `wanted` names, to pass on to the service. */
const passedOn = (wanted: (name: string) => boolean): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).flatMap(([name, value]) =>
      value !== undefined && wanted(name) ? [[name, value]] : [],
    ),
  );
/** The engine settings the image gives Bun (its JSC options), so the soak measures what it runs. */
const IMAGE_ENGINE_ENV = Object.fromEntries(
  Object.entries(envOf(readDockerfile(REPO_ROOT).stages.at(-1)!)).filter(([name]) =>
    name.startsWith("BUN_JSC_"),
  ),
);
/**
 * For trying allocator and engine settings side by side: glibc's (Deno) and mimalloc's (Bun)
 * variables and JSC's options (Bun reads BUN_JSC_*) are passed on; V8 flags are added (Deno).
 */
const TRIED_ENV = passedOn(
  (name) => name === "MALLOC_ARENA_MAX" || name.startsWith("MIMALLOC_") || name.startsWith("BUN_JSC_"),
);
/** Variables as a shell would set them: `A=1 B=2`. */
const assignments = (env: Readonly<Record<string, string>>) =>
  Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
const TRIED_V8_FLAGS = (process.env.BENCH_SOAK_V8_FLAGS ?? "").split(",").filter((flag) => flag !== "");
const RUNTIMES = {
  bun: { entry: PROBED_ENTRY, name: "Bun" },
  "bun-smol": { entry: PROBED_SMOL_ENTRY, name: "Bun with --smol" },
  deno: { entry: probedDenoEntry(TRIED_V8_FLAGS), name: "Deno" },
} as const;
const RUNTIME = (process.env.BENCH_SOAK_RUNTIME ?? "bun") as keyof typeof RUNTIMES;
if (!(RUNTIME in RUNTIMES)) throw new Error(`BENCH_SOAK_RUNTIME: one of ${Object.keys(RUNTIMES).join(", ")}`);
/** The engine settings the measured service runs with, for the notes. */
const ENGINE_SETTINGS =
  RUNTIME === "deno"
    ? `npm run start:deno's command (${RUNTIMES.deno.entry.filter((word) => /^[A-Z_]+=|^--v8-flags=/.test(word)).join(" ")}), as the image's Deno entry sets them`
    : `${assignments(IMAGE_ENGINE_ENV) || "none"}, as the image's Dockerfile sets them`;
/**
 * Chats that fill every per-chat cap and give every client address a quota state, then turn the
 * per-chat rings over once more: an address's first answer shares its address string with its
 * quota entry, later ones hold their own, so rings filled by first answers alone read about
 * 3 MB under their steady state (a heap snapshot of the answer ids' owners showed it).
 */
const FILL_CHATS = Number(
  process.env.BENCH_SOAK_FILL_CHATS ?? IDENTITIES + Math.max(MAX_ANSWERS, DEFAULT_INSIGHTS_BOUNDS.maxEvents),
);

/** A wrk script sending `method path` with `body`, the n-th request from client address `first + n` (mod IDENTITIES). */
const script = (method: string, body: string | undefined, first: number) => `
wrk.method = "${method}"
${body === undefined ? "" : `wrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"`}
counter = ${first}
request = function()
  local n = counter % ${IDENTITIES}
  counter = counter + 1
  wrk.headers["X-Forwarded-For"] = string.format("10.9.%d.%d", math.floor(n / 256) % 256, n % 256)
  return wrk.format()
end
`;

const { work, service, usedPayment, stop } = await startBenchService(
  "soak-bench",
  {
    TRUST_PROXY: "loopback",
    ADMIN_TOKEN: "soak-bench-admin-token-0123456789",
    HEAP_PROBE_FILE: "heap.json",
    ...(RUNTIME === "deno" ? {} : IMAGE_ENGINE_ENV),
    ...TRIED_ENV,
    ...passedOn((name) => name === "HEAP_SNAPSHOT_DIR"),
  },
  RUNTIMES[RUNTIME].entry,
);
/** Live heap and RSS after a full GC, MB. */
const afterGc = async () => {
  const probe = await readHeap(service.pid, join(work, "heap.json"));
  return {
    heap: probe.heapSize / 2 ** 20,
    // Memory objects hold outside their cells (array buffers, a Map's table): heap growth with
    // no more objects shows here.
    extra: probe.extraMemorySize / 2 ** 20,
    rss: probe.rss / 2 ** 20,
    types: probe.types,
  };
};
/** The object types whose live count grew most from `before` to `after` (Bun only: Deno gives no counts). */
const grownTypes = (before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>) =>
  Object.entries(after)
    .map(([type, count]) => [type, count - (before[type] ?? 0)] as const)
    .filter(([, grown]) => grown > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([type, grown]) => `${type} +${grown.toLocaleString("en-US")}`)
    .join(", ");
try {
  const used = (await usedPayment()).signature;
  type Slice = readonly [method: string, path: string, body?: string];
  const status: Slice = ["GET", "/api/status"];
  const info: Slice = ["GET", "/api/payment/info"];
  const chat: Slice = ["POST", "/api/chat", JSON.stringify({ message: "How do I pay for more questions?" })];
  const payment: Slice = [
    "POST",
    "/api/payment",
    JSON.stringify({ signature: used, amount: 0.01, token: "USDC" }),
  ];
  let next = 0; // the client address the next slice starts with: slices go on where the last stopped
  /** One wrk run of `seconds`; the number of requests it sent. */
  const load = async ([method, path, body]: Slice, seconds: number) => {
    const file = join(work, "soak.lua");
    writeFileSync(file, script(method, body, next));
    const wrk = Bun.spawn(["wrk", "-t1", "-c8", `-d${seconds}s`, "-s", file, `${service.url}${path}`], {
      stdout: "pipe",
      stderr: "ignore",
    });
    const requests = Number(/(\d+) requests in/.exec(await new Response(wrk.stdout).text())?.[1] ?? 0);
    await wrk.exited;
    next = (next + requests) % IDENTITIES;
    return requests;
  };

  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) / 1000);
  const atStart = await afterGc();
  let infos = 0;
  while (infos < IDENTITIES) infos += await load(info, 10);
  let chats = 0;
  while (chats < FILL_CHATS) {
    chats += await load(chat, SLICE);
    console.log(
      `  warm-up ${String(elapsed()).padStart(4)} s  ${chats} chats  RSS ${rssMb(service.pid).toFixed(1)} MB`,
    );
  }
  const warmUp = elapsed();

  // Two series: RSS after each slice, as an operator sees it, and every rotation (4 slices) the
  // live heap and RSS right after a full GC, which tell held state from garbage not yet collected.
  const samples: Array<{ at: number; rss: number }> = [];
  // Requests per endpoint: the garbage, and so the RSS, follows the rate the machine allowed.
  const served = new Map<string, { requests: number; seconds: number }>();
  const collected = [{ at: 0, ...(await afterGc()) }];
  const measured = performance.now();
  const since = () => Math.round((performance.now() - measured) / 1000);
  const slices = [status, info, chat, payment];
  for (let i = 0; since() < SECONDS || i % slices.length !== 0; i++) {
    const slice = slices[i % slices.length]!;
    const sent = await load(slice, SLICE);
    const so = served.get(slice[1]) ?? { requests: 0, seconds: 0 };
    served.set(slice[1], { requests: so.requests + sent, seconds: so.seconds + SLICE });
    samples.push({ at: since(), rss: rssMb(service.pid) });
    console.log(
      `  ${String(since()).padStart(4)} s  ${slice[1].padEnd(18)} RSS ${samples.at(-1)!.rss.toFixed(1)} MB`,
    );
    if (i % slices.length === slices.length - 1) {
      collected.push({ at: since(), ...(await afterGc()) });
      const { heap, extra, rss } = collected.at(-1)!;
      console.log(
        `         after a full GC: live heap ${heap.toFixed(1)} MB (outside cells ${extra.toFixed(1)} MB), RSS ${rss.toFixed(1)} MB`,
      );
      const grown = grownTypes(collected.at(-2)!.types, collected.at(-1)!.types);
      if (grown !== "") console.log(`         grown since the last reading: ${grown}`);
    }
  }
  const [warm, end] = [collected[0]!, collected.at(-1)!];
  const mean = (values: ReadonlyArray<number>) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const [firstRotation, lastRotation] = [
    mean(samples.slice(0, 4).map((s) => s.rss)),
    mean(samples.slice(-4).map((s) => s.rss)),
  ];
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  const change = (value: number, baseline: number) =>
    `${(((value - baseline) / baseline) * 100).toFixed(1)}%`;
  /** A reading at the end against the same one right after the warm-up, held to "flat". */
  const flat = (measure: string, value: number, baseline: number) => ({
    measure,
    value: mb(value),
    baseline: `${mb(baseline)} after the warm-up`,
    comparison: change(value, baseline),
    goal: "flat: within 10%",
    met: value <= baseline * 1.1,
  });
  const slopeOf = (points: ReadonlyArray<{ at: number; rss: number }>) =>
    slope(points.map((p) => ({ x: p.at / 60, y: p.rss })));
  const perMinute = (points: ReadonlyArray<{ at: number; rss: number }>) =>
    `${slopeOf(points).toFixed(2)} MB/min`;
  /** The readings of the last TREND_SECONDS (all of them in a shorter run). */
  const late = <P extends { at: number }>(points: ReadonlyArray<P>) =>
    points.filter((p) => p.at >= collected.at(-1)!.at - TREND_SECONDS);
  const trendAfterGc = slopeOf(late(collected));
  const peak = Math.max(...samples.map((s) => s.rss));
  const filled = warm.heap - atStart.heap;
  const section = `soak${RUNTIME === "bun" ? "" : `-${RUNTIME}`}${IDENTITIES === 65_536 ? "" : `-${IDENTITIES}`}`;
  record(section, {
    title: `Soak (on demand) on ${RUNTIMES[RUNTIME].name}, ${IDENTITIES.toLocaleString("en-US")} client addresses`,
    method: `The real service on ${RUNTIMES[RUNTIME].name} (memory store, demo index, extractive answers, insights on): a warm-up fills every bounded structure clients grow (a memo reference and a quota state per client address; ${FILL_CHATS.toLocaleString("en-US")} chats for the 100,000 answer ids and insight events), then ${SECONDS} s of load, the four endpoints in turn in ${SLICE}-second slices (wrk, 8 connections, ${IDENTITIES.toLocaleString("en-US")} client addresses through X-Forwarded-For): RSS after each slice, and after each rotation of the four the live heap and RSS right after a full GC (a bench-only preload). Baselines: the same readings right after the warm-up.`,
    figures: [
      {
        measure: `after a full GC, end of ${SECONDS} s of load: RSS`,
        value: mb(end.rss),
        baseline: `${mb(warm.rss)} after the warm-up`,
        comparison: change(end.rss, warm.rss),
        goal: `<= ${GOALS.rssAfterGc} MB`,
        met: end.rss <= GOALS.rssAfterGc,
      },
      {
        measure: "peak RSS (sampled)",
        value: mb(peak),
        goal: `<= ${GOALS.peakRss} MB`,
        met: peak <= GOALS.peakRss,
      },
      {
        measure: `RSS trend over the last ${Math.min(TREND_SECONDS, SECONDS) / 60} minutes, after a full GC / sampled`,
        value: `${trendAfterGc.toFixed(2)} / ${slopeOf(late(samples)).toFixed(2)} MB/min`,
        goal: `no upward trend: <= ${GOALS.trendMbPerMin} MB/min after a full GC`,
        met: trendAfterGc <= GOALS.trendMbPerMin,
      },
      {
        measure: "live heap of the filled structures",
        value: mb(filled),
        baseline: `${mb(atStart.heap)} before any load (RSS ${mb(atStart.rss)})`,
        goal: `<= ${GOALS.filledHeap} MB`,
        met: filled <= GOALS.filledHeap,
      },
      flat("after a full GC: live JS heap", end.heap, warm.heap),
      {
        measure: "RSS as sampled (no forced GC): mean of the last rotation",
        value: mb(lastRotation),
        baseline: `${mb(firstRotation)} in the first rotation`,
        comparison: change(lastRotation, firstRotation),
      },
      {
        measure: "RSS slope over the whole run, sampled / after a full GC",
        value: `${perMinute(samples)} / ${perMinute(collected)}`,
      },
    ],
    notes: [
      `engine settings: ${ENGINE_SETTINGS}`,
      ...(Object.keys(TRIED_ENV).length + TRIED_V8_FLAGS.length === 0
        ? []
        : [`tried: ${[assignments(TRIED_ENV), ...TRIED_V8_FLAGS].filter((part) => part !== "").join(" ")}`]),
      `warm-up: ${warmUp} s (${infos} payment-info requests, ${chats} chats)`,
      `requests during the load (the rate the machine allowed): ${[...served].map(([path, { requests, seconds }]) => `${path} ${requests} (${(requests / seconds).toFixed(0)}/s)`).join(", ")}`,
      `RSS after each slice (s: MB): ${samples.map((s) => `${s.at}: ${s.rss.toFixed(0)}`).join(", ")}`,
      `after a full GC (s: live heap / RSS, MB): ${collected.map((c) => `${c.at}: ${c.heap.toFixed(0)} / ${c.rss.toFixed(0)}`).join(", ")}`,
      ...(RUNTIME === "deno"
        ? []
        : [
            `live objects grown from the warm-up to the end, by type: ${grownTypes(warm.types, end.types) || "none"}`,
          ]),
    ],
  });
} finally {
  await stop();
}
