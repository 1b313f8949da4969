/**
 * POST /api/chat latency of the real service (`bun src/main.ts` as a child process, embedded
 * defaults: local index, hashed vectors, extractive answers, demo chain) over the Node.js API
 * docs: ingest time, p50/p95/p99 at concurrency 1 and 10 with the evaluation questions cycled,
 * and the service's RSS with the corpus loaded. Goal: p95 < 100 ms. Loopback only; stops
 * every child process it started, also on error.
 *
 *   bun src/bench/chat-bench.ts [--docs DIR] [--questions FILE] [--requests N] [--deno] [--cpu-prof DIR]
 *
 * --deno runs the service under Deno (src/deno.ts) instead; --cpu-prof DIR writes a Bun CPU
 * profile of the service to DIR when it stops.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Effect } from "effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import {
  BUN_ENTRY,
  DENO_ENTRY,
  type ServiceProcess,
  startService,
} from "../../test/support/service-process.ts";
import { readQuestions } from "../eval/questions.ts";
import { indexLayer, withSettings } from "../runtime/adapter-layers.ts";
import { defaultConfig } from "../runtime/app-layer.ts";
import { DEFAULT_NODE_DOCS_DIR, ensureNodeDocs } from "./node-docs.ts";
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
    "cpu-prof": { type: "string" },
  },
});
const REQUESTS = Number(values.requests);
const LEVELS = [1, 10];
const WARMUP = 40;
const questions = readQuestions(values.questions).map((q) => q.question);

/** Resident set size of a process in MB, from /proc (Linux). */
const rssMb = (pid: number): number => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return line === undefined ? Number.NaN : Math.round(Number(line) / 1024);
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
const load = async (url: string, concurrency: number, total: number) => {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        samples.push(await ask(url, questions[i % questions.length]!));
      }
    }),
  );
  return { ...summary(samples), rps: total / ((performance.now() - started) / 1000) };
};

const work = mkdtempSync(join(tmpdir(), "chat-bench-"));
const indexPath = join(work, "index.bin");
let service: ServiceProcess | undefined;
try {
  ensureNodeDocs(values.docs);
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
    env: { INDEX_PATH: indexPath, RATE_LIMIT_FREE_QUERIES: "1000000", PROTECTION_RATE_LIMIT: "1000000" },
  });
  const { url, pid } = service;
  const rssStarted = rssMb(pid);
  for (let i = 0; i < WARMUP; i++) await ask(url, questions[i % questions.length]!);
  const rssWarm = rssMb(pid);
  const results = [];
  for (const concurrency of LEVELS)
    results.push({ concurrency, ...(await load(url, concurrency, REQUESTS)) });
  const rssAfter = rssMb(pid);

  console.log(
    `\nPOST /api/chat, real service (${values.deno ? "deno src/deno.ts" : "bun src/main.ts"}), Node.js API docs: ${report.files} files, ${report.chunks} chunks`,
  );
  console.log("local index + hashed vectors + extractive answers, loopback, JSON (no streaming)");
  console.log(`  ingest ${ingestSeconds.toFixed(2)} s   (${questions.length} questions cycled)`);
  console.log("  concurrency  requests      req/s        p50        p95        p99");
  for (const r of results)
    console.log(
      `  ${String(r.concurrency).padStart(11)}  ${String(REQUESTS).padStart(8)}  ${r.rps.toFixed(0).padStart(9)}  ${fmt(r.p50).padStart(9)}  ${fmt(r.p95).padStart(9)}  ${fmt(r.p99).padStart(9)}`,
    );
  const worst = Math.max(...results.map((r) => r.p95));
  console.log(`  goal p95 < 100 ms: ${worst < 100 ? "met" : "MISSED"} (worst p95 ${fmt(worst)})`);
  console.log(
    `  service RSS: ${rssStarted} MB after start, ${rssWarm} MB after ${WARMUP} warm-up answers, ${rssAfter} MB after the load`,
  );
} finally {
  await service?.stop();
  rmSync(work, { recursive: true, force: true });
}
