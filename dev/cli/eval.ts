/**
 * `npm run eval -- --docs DIR --questions TSV [--out-of-scope TSV] [--chroma URL|start]`: how
 * well the service answers questions about DIR, measured as a visitor meets it. The docs are
 * ingested into a fresh index, the real service is started on it (its own embedded defaults
 * unless the environment configures a model), and every question goes through POST /api/chat
 * from its own client address. Prints recall@1/@5 by file, phrase rate, decline rates,
 * declines charged and latency. Exit 0 when it ran (whatever the figures), 1 when it could not
 * run, 2 on bad usage.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as Effect from "effect/Effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { commandLine } from "../../src/cli/command-line.ts";
import { indexLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { startLocalChroma } from "../../test/support/chroma-server.ts";
import { type ServiceProcess, startService } from "../../test/support/service-process.ts";
import { ask, type ChatReply, freeQuestions } from "../eval/ask.ts";
import { readOutOfScope, readQuestions } from "../eval/questions.ts";
import { printReport } from "../eval/report.ts";
import { type DevOutcome, figures } from "../eval/score.ts";

const USAGE = `Usage: npm run eval -- --docs DIR --questions TSV [--out-of-scope TSV] [options]

Ingests DIR into a fresh index, starts the service on it and asks every question through
POST /api/chat, each from its own client address. Prints file recall@1/@5 (the expected
page among the cited sources), phrase rate (the expected phrase in the answer text),
decline rates, declined answers that were charged, and chat latency.

  --questions TSV     header, then question<TAB>file<TAB>phrase lines (file relative to DIR)
  --out-of-scope TSV  header, then one question per line the docs do not answer
  --chroma URL|start  use a Chroma server (start: run one from node_modules on a free port)
  --warmup N          requests before measuring (default 20)
  --verbose           list every miss
  -h, --help          show this text

The service gets the embedded defaults; LLM_API_KEY, LLM_MODEL, LLM_BASE_URL and
EMBEDDING_MODEL are passed on from the environment when set.`;

const { values, fail } = commandLine("eval", USAGE, {
  docs: { type: "string" },
  questions: { type: "string" },
  "out-of-scope": { type: "string" },
  chroma: { type: "string" },
  warmup: { type: "string", default: "20" },
  verbose: { type: "boolean", default: false },
});
const docs = values.docs ?? fail("--docs DIR is required", 2);
const questionsFile = values.questions ?? fail("--questions TSV is required", 2);
const warmup = Number(values.warmup);
if (!Number.isInteger(warmup) || warmup < 0) fail("--warmup must be a whole number", 2);

const read = <A>(what: () => A): A => {
  try {
    return what();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error), 2);
  }
};
const dev = read(() => readQuestions(questionsFile));
const outOfScope =
  values["out-of-scope"] === undefined ? [] : read(() => readOutOfScope(values["out-of-scope"]!));
if (dev.length === 0) fail(`${questionsFile} has no questions`, 2);

const PASSED_ON = ["LLM_API_KEY", "LLM_MODEL", "LLM_BASE_URL", "EMBEDDING_MODEL"] as const;
const passedOn = Object.fromEntries(
  PASSED_ON.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])),
);

const work = mkdtempSync(join(tmpdir(), "docs-eval-"));
const stops: Array<() => Promise<unknown>> = [];
try {
  let chromaUrl = values.chroma;
  if (chromaUrl === "start") {
    const chroma = await startLocalChroma();
    stops.push(chroma.stop);
    chromaUrl = chroma.url;
  }
  const indexEnv: Record<string, string> =
    chromaUrl === undefined
      ? { INDEX_PATH: join(work, "index.bin") }
      : { CHROMA_URL: chromaUrl, VECTOR_INDEX_NAME: `eval-${process.pid}-${Date.now()}` };
  const vector =
    chromaUrl === undefined
      ? ({ kind: "local", indexPath: indexEnv.INDEX_PATH! } as const)
      : ({
          kind: "chroma",
          url: chromaUrl,
          apiKey: undefined,
          collection: indexEnv.VECTOR_INDEX_NAME!,
        } as const);
  const ingestStarted = performance.now();
  const report = await Effect.runPromise(
    ingest([docs]).pipe(
      Effect.provide(
        withSettings(defaultConfig({ vector, embeddingModel: passedOn.EMBEDDING_MODEL }), indexLayer()),
      ),
    ),
  ).catch((error: unknown) => {
    throw new Error(`ingest failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  const ingestSeconds = (performance.now() - ingestStarted) / 1000;

  const service: ServiceProcess = await startService({
    cwd: work,
    readyTimeoutMs: 120_000,
    env: { ...indexEnv, ...passedOn, TRUST_PROXY: "loopback", PROTECTION_RATE_LIMIT: "100000" },
  });
  stops.push(service.stop);
  let client = 0;
  const free = await freeQuestions(service.url, client++);
  for (let i = 0; i < warmup; i++) await ask(service.url, dev[i % dev.length]!.question, client++);
  const devOutcomes: DevOutcome[] = [];
  for (const question of dev)
    devOutcomes.push({ question, reply: await ask(service.url, question.question, client++) });
  const outOfScopeReplies: ChatReply[] = [];
  for (const question of outOfScope) outOfScopeReplies.push(await ask(service.url, question, client++));

  printReport({
    docs,
    files: report.files,
    chunks: report.chunks,
    ingestSeconds,
    index: chromaUrl === undefined ? "local index" : `Chroma at ${chromaUrl}`,
    answers:
      passedOn.LLM_API_KEY === undefined
        ? "extractive answers"
        : `LLM ${passedOn.LLM_MODEL ?? "(default model)"}`,
    devSet: basename(questionsFile),
    outOfScopeSet: values["out-of-scope"] === undefined ? undefined : basename(values["out-of-scope"]),
    warmup,
    figures: figures(devOutcomes, outOfScopeReplies, free),
    misses: values.verbose
      ? { dev: devOutcomes, outOfScope: outOfScope.map((q, i) => [q, outOfScopeReplies[i]!] as const) }
      : undefined,
  });
} catch (error) {
  console.error(`eval: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
}
