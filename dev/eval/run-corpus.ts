/**
 * One corpus evaluated as a visitor meets it: the docs ingested into a fresh index, the real
 * service started on it (its embedded defaults unless the environment configures a model), and
 * every question put through POST /api/chat from its own client address.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { indexLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { startLocalChroma } from "../../test/support/chroma-server.ts";
import { startService } from "../../test/support/service-process.ts";
import { ask, type ChatReply, freeQuestions } from "./ask.ts";
import type { EvalQuestion } from "./questions.ts";
import type { DevOutcome } from "./score.ts";

/** Variables passed on to the service when set: a model, an embedder. */
export const PASSED_ON = ["LLM_API_KEY", "LLM_MODEL", "LLM_BASE_URL", "EMBEDDING_MODEL"] as const;

export const passedOn = (): Record<string, string> =>
  Object.fromEntries(
    PASSED_ON.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])),
  );

export interface CorpusRun {
  readonly files: number;
  readonly chunks: number;
  readonly ingestSeconds: number;
  readonly free: number;
  readonly dev: ReadonlyArray<DevOutcome>;
  readonly outOfScope: ReadonlyArray<ChatReply>;
}

export interface CorpusOptions {
  readonly docs: string;
  readonly dev: ReadonlyArray<EvalQuestion>;
  readonly outOfScope: ReadonlyArray<string>;
  /** A Chroma URL, "start" (one from node_modules), or undefined for the local index. */
  readonly chroma?: string | undefined;
  /** Requests before measuring. */
  readonly warmup: number;
}

/** Ingests, serves and asks; everything it started is stopped, its files removed. */
export const runCorpus = async (options: CorpusOptions): Promise<CorpusRun> => {
  const work = mkdtempSync(join(tmpdir(), "docs-eval-"));
  const stops: Array<() => Promise<unknown>> = [];
  const model = passedOn();
  try {
    let chromaUrl = options.chroma;
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
    const started = performance.now();
    const report = await Effect.runPromise(
      ingest([options.docs]).pipe(
        Effect.provide(
          withSettings(defaultConfig({ vector, embeddingModel: model.EMBEDDING_MODEL }), indexLayer()),
        ),
      ),
    ).catch((error: unknown) => {
      throw new Error(
        `ingest of ${options.docs} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    const ingestSeconds = (performance.now() - started) / 1000;
    const service = await startService({
      cwd: work,
      readyTimeoutMs: 120_000,
      env: { ...indexEnv, ...model, TRUST_PROXY: "loopback", PROTECTION_RATE_LIMIT: "100000" },
    });
    stops.push(service.stop);
    let client = 0;
    const free = await freeQuestions(service.url, client++);
    const { dev } = options;
    for (let i = 0; i < options.warmup && dev.length > 0; i++)
      await ask(service.url, dev[i % dev.length]!.question, client++);
    const outcomes: DevOutcome[] = [];
    for (const question of dev)
      outcomes.push({ question, reply: await ask(service.url, question.question, client++) });
    const outOfScope: ChatReply[] = [];
    for (const question of options.outOfScope) outOfScope.push(await ask(service.url, question, client++));
    return { files: report.files, chunks: report.chunks, ingestSeconds, free, dev: outcomes, outOfScope };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
};
