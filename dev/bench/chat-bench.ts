/**
 * POST /api/chat latency of the real service (`bun src/main.ts` as a child process, embedded
 * defaults: local index, hashed vectors, extractive answers, demo chain) over the Node.js API
 * docs: ingest time, p50/p95/p99 at concurrency 1 and 10 with the evaluation questions cycled,
 * and the service's RSS with the corpus loaded, beside GET /healthz of the same service at the
 * same concurrency (the HTTP round trip alone). Goal: p95 < 50 ms. Loopback only; stops
 * every child process it started, also on error.
 *
 *   bun dev/bench/chat-bench.ts [--docs DIR] [--questions FILE] [--requests N] [--deno] [--cpu-prof DIR]
 *
 * --deno runs the service under Deno (src/deno.ts) instead; --cpu-prof DIR writes a Bun CPU
 * profile of the service to DIR when it stops; --corpus NAME and --section KEY name another
 * corpus in the report and record it in its own section, and --rss-goal MB holds the RSS after
 * the load to a goal (<= 200 MB with the PostgreSQL docs: a small container holds the largest corpus).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as Effect from "effect/Effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { indexLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import {
  BUN_ENTRY,
  DENO_ENTRY,
  type ServiceProcess,
  startService,
} from "../../test/support/service-process.ts";
import { readQuestions } from "../eval/questions.ts";
import { BENCH_OUTPUT_TAIL } from "./bench-service.ts";
import { DEFAULT_NODE_DOCS_DIR, ensureNodeDocs } from "./node-docs.ts";
import { record } from "./report.ts";
import { fmt, summary } from "./stats.ts";

const { values } = parseArgs({
  options: {
    docs: { type: "string", default: DEFAULT_NODE_DOCS_DIR },
    questions: {
      type: "string",
      default: fileURLToPath(new URL("../../test/fixtures/docs/node-docs-dev.tsv", import.meta.url)),
    },
    requests: { type: "string", default: process.env.BENCH_CHAT_REQUESTS ?? "200" },
    deno: { type: "boolean", default: false },
    corpus: { type: "string", default: "the Node.js API docs" },
    section: { type: "string" },
    "rss-goal": { type: "string" },
    "cpu-prof": { type: "string" },
  },
});
const REQUESTS = Number(values.requests);
/** MB the RSS after the load must stay under, when a goal is given (--rss-goal). */
const RSS_GOAL = values["rss-goal"] === undefined ? undefined : Number(values["rss-goal"]);
const LEVELS = [1, 10];
const WARMUP = 40;
const questions = readQuestions(values.questions).map((q) => q.question);

/** Resident set size of a process in MB, from /proc (Linux). */
const rssMb = (pid: number): number => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return line === undefined ? Number.NaN : Math.round(Number(line) / 1024);
};

/** One GET /healthz: the round trip with no work behind it, the baseline of a chat. */
const ping = async (url: string): Promise<number> => {
  const started = performance.now();
  const res = await fetch(`${url}/healthz`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`healthz failed: ${res.status}`);
  return performance.now() - started;
};

/** One chat request; fails the bench on anything but a 200 answer with sources. */
const ask = async (url: string, message: string): Promise<number> => {
  const started = performance.now();
  const res = await fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ message }),
  });
  const body = (await res.json()) as { success?: boolean; sources?: ReadonlyArray<unknown> };
  const elapsed = performance.now() - started;
  if (res.status !== 200 || body.success !== true || (body.sources?.length ?? 0) === 0)
    throw new Error(`chat failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return elapsed;
};

/** `total` requests over `concurrency` workers, each taking the next question in turn. */
const load = async (concurrency: number, total: number, request: (i: number) => Promise<number>) => {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) samples.push(await request(next++));
    }),
  );
  return { ...summary(samples), rps: total / ((performance.now() - started) / 1000) };
};

const work = mkdtempSync(join(tmpdir(), "chat-bench-"));
const indexPath = join(work, "index.bin");
let service: ServiceProcess | undefined;
try {
  // Only the default folder is fetched: another corpus is the caller's (fetching would add the Node docs to it).
  if (values.docs === DEFAULT_NODE_DOCS_DIR) ensureNodeDocs(values.docs);
  const started = performance.now();
  const report = await Effect.runPromise(
    ingest([values.docs]).pipe(
      Effect.provide(withSettings(defaultConfig({ vector: { kind: "local", indexPath } }), indexLayer())),
    ),
  );
  const ingestSeconds = (performance.now() - started) / 1000;
  const profile = values["cpu-prof"];
  const command = values.deno
    ? DENO_ENTRY
    : profile === undefined
      ? BUN_ENTRY
      : [BUN_ENTRY[0]!, "--cpu-prof", `--cpu-prof-dir=${profile}`, ...BUN_ENTRY.slice(1)];
  service = await startService({
    cwd: work,
    command,
    readyTimeoutMs: 60_000,
    outputTail: BENCH_OUTPUT_TAIL,
    env: { INDEX_PATH: indexPath, RATE_LIMIT_FREE_QUERIES: "1000000", PROTECTION_RATE_LIMIT: "1000000" },
  });
  const { url, pid } = service;
  const rssStarted = rssMb(pid);
  for (let i = 0; i < WARMUP; i++) await ask(url, questions[i % questions.length]!);
  const rssWarm = rssMb(pid);
  const results = [];
  const baselines: Array<{ concurrency: number; p50: number; p95: number; p99: number; rps: number }> = [];
  for (const concurrency of LEVELS) {
    results.push({
      concurrency,
      ...(await load(concurrency, REQUESTS, (i) => ask(url, questions[i % questions.length]!))),
    });
    baselines.push({ concurrency, ...(await load(concurrency, REQUESTS, () => ping(url))) });
  }
  const rssAfter = rssMb(pid);

  console.log(
    `\nPOST /api/chat, real service (${values.deno ? "deno src/deno.ts" : "bun src/main.ts"}), ${values.corpus}: ${report.files} files, ${report.chunks} chunks`,
  );
  console.log("local index + hashed vectors + extractive answers, loopback, JSON (no streaming)");
  console.log(`  ingest ${ingestSeconds.toFixed(2)} s   (${questions.length} questions cycled)`);
  console.log("  concurrency  requests      req/s        p50        p95        p99");
  for (const r of results)
    console.log(
      `  ${String(r.concurrency).padStart(11)}  ${String(REQUESTS).padStart(8)}  ${r.rps.toFixed(0).padStart(9)}  ${fmt(r.p50).padStart(9)}  ${fmt(r.p95).padStart(9)}  ${fmt(r.p99).padStart(9)}`,
    );
  const worst = Math.max(...results.map((r) => r.p95));
  console.log(`  goal p95 < 50 ms: ${worst < 50 ? "met" : "MISSED"} (worst p95 ${fmt(worst)})`);
  for (const b of baselines)
    console.log(
      `  baseline GET /healthz, concurrency ${b.concurrency}: p95 ${fmt(b.p95)}, p99 ${fmt(b.p99)}`,
    );
  console.log(
    `  service RSS: ${rssStarted} MB after start, ${rssWarm} MB after ${WARMUP} warm-up answers, ${rssAfter} MB after the load`,
  );
  record(values.section ?? (values.deno ? "chat-deno" : "chat"), {
    title: `POST /api/chat on the embedded defaults${values.section === undefined ? "" : `, ${values.corpus}`}${values.deno ? " (Deno)" : ""}`,
    method: `The real service (\`${values.deno ? "npm run start:deno" : "bun src/main.ts"}\`) over ${values.corpus} (${report.files} files, ${report.chunks} chunks): local index, hashed vectors, extractive answers, JSON; ${REQUESTS} requests per level, questions of the dev set cycled; baseline GET /healthz of the same process at the same concurrency.`,
    figures: [
      ...results.flatMap((r, i) => {
        const b = baselines[i]!;
        return [
          {
            measure: `p95, concurrency ${r.concurrency}`,
            value: fmt(r.p95),
            baseline: fmt(b.p95),
            comparison: `+${fmt(r.p95 - b.p95)}`,
            goal: "< 50 ms",
            met: r.p95 < 50,
          },
          {
            measure: `p50 / p99, concurrency ${r.concurrency}`,
            value: `${fmt(r.p50)} / ${fmt(r.p99)}`,
            baseline: `${fmt(b.p50)} / ${fmt(b.p99)}`,
          },
          {
            measure: `req/s, concurrency ${r.concurrency}`,
            value: r.rps.toFixed(0),
            baseline: b.rps.toFixed(0),
          },
        ];
      }),
      { measure: "ingest of the corpus", value: `${ingestSeconds.toFixed(2)} s` },
      {
        measure: "service RSS: started / warm / after load",
        value: `${rssStarted} / ${rssWarm} / ${rssAfter} MB`,
        ...(RSS_GOAL === undefined
          ? {}
          : { goal: `after load <= ${RSS_GOAL} MB`, met: rssAfter <= RSS_GOAL }),
      },
    ],
  });
} finally {
  await service?.stop();
  rmSync(work, { recursive: true, force: true });
}
