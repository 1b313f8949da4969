/**
 * Which adapter serves each port, chosen once from the configuration: each choice is a layer
 * unwrapped over AppSettings, so programs (the service, the CLIs, the benches) name the port
 * they need and never branch on "local or Chroma", "Groq or extractive" themselves. The store
 * is chosen in app-layer.ts, beside the payment settings that read its durability. Adapters of
 * outside services (Chroma, Groq, transformers, Redis) are imported only when configured: the
 * embedded defaults then never load their client libraries, which keeps the idle service small.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { HashEmbedder } from "../../adapters/embed-hash/index.ts";
import * as ExtractiveGenerator from "../../adapters/llm-extractive/index.ts";
import type { CacheOptions, FallbackOptions } from "../../adapters/llm-fallback/index.ts";
import { LocalIndex, LocalRetriever } from "../../adapters/retrieval-local/index.ts";
import { MemoryAnswerCache } from "../../adapters/store-memory/index.ts";
import type { AppConfig, VectorConfig } from "../../core/config/config.ts";
import type { AnswerCache } from "../../core/ports/answer-cache.ts";
import { AppSettings } from "./app-settings.ts";

/** A layer picked from the configuration when it is built. */
const chosen = <A, E, R>(pick: (config: AppConfig) => Layer.Layer<A, E, R>) =>
  Layer.unwrap(Effect.map(AppSettings, pick));

/** A module imported when the layer is built (a failed import is a defect: the install is broken). */
export const lazily = <M>(load: () => Promise<M>): Effect.Effect<M> => Effect.promise(load);

/** A layer from a module imported only when the configuration picks it. */
const chosenLazily = <M, A, E, R>(load: () => Promise<M>, pick: (module: M) => Layer.Layer<A, E, R>) =>
  Layer.unwrap(Effect.map(lazily(load), pick));

const chroma = () => import("../../adapters/retrieval-chroma/index.ts");

/** EMBEDDING_MODEL unset or "hash": the download-free hashed embedder; else that transformers model. */
export const embedderLayer = chosen(({ embeddingModel }) =>
  embeddingModel === undefined || embeddingModel === "hash"
    ? HashEmbedder.layer
    : chosenLazily(
        () => import("../../adapters/embed-transformers/index.ts"),
        ({ TransformersEmbedder }) => TransformersEmbedder.layer({ model: embeddingModel }),
      ),
);

/** An index (re)loaded by the running service: at start, and after each finished ingest. */
export interface IndexLoaded {
  readonly reason: "start" | "reload";
  readonly files: number;
  readonly chunks: number;
  readonly version: string;
  /** An estimate of the memory the loaded index holds (the local file's size; Chroma: its snapshot). */
  readonly bytes: number;
  /** The language the index was analysed in. */
  readonly language: string;
}

export interface RetrievalEvents {
  readonly onLoad?: (event: IndexLoaded) => void;
  /** A new index that could not be loaded (the current one stays in use). */
  readonly onReloadFailed?: (message: string) => void;
}

/** The read side, telling `events` when an index is loaded: Retriever over the local file or Chroma, and its Embedder. */
export const retrievalLayerWith = (events: RetrievalEvents) =>
  Layer.provideMerge(
    chosen(({ vector, docsLanguage }) =>
      vector.kind === "local"
        ? LocalRetriever.layer({ indexPath: vector.indexPath, ...events })
        : chosenLazily(chroma, ({ ChromaRetriever }) =>
            ChromaRetriever.layer({
              url: vector.url,
              apiKey: vector.apiKey,
              collection: vector.collection,
              language: docsLanguage,
              onLoad: events.onLoad,
            }),
          ),
    ),
    embedderLayer,
  );

/** The read side, for programs that need no load events (CLIs, benches). */
export const retrievalLayer = retrievalLayerWith({});

/** The write side for ingest: ChunkIndex and Embedder; `rebuild` empties the index first. */
export const indexLayer = (options: { readonly rebuild?: boolean } = {}) =>
  Layer.provideMerge(
    chosen(({ vector, docsLanguage }) =>
      vector.kind === "local"
        ? LocalIndex.layer({ indexPath: vector.indexPath, rebuild: options.rebuild, language: docsLanguage })
        : chosenLazily(chroma, ({ ChromaIndex }) =>
            ChromaIndex.layer({
              url: vector.url,
              apiKey: vector.apiKey,
              collection: vector.collection,
              rebuild: options.rebuild,
            }),
          ),
    ),
    embedderLayer,
  );

export interface GeneratorSettings extends FallbackOptions, CacheOptions {
  /** Per LLM call; default 5 s. */
  readonly timeoutMs?: number | undefined;
  /** Where answers are kept (default: shared on Redis with REDIS_URL, else bounded in this process). */
  readonly cache?: Layer.Layer<AnswerCache, never, AppSettings> | undefined;
}

/**
 * What an answer may wait for the language model, retries included, before the extractive
 * answer is given instead: the chat's target is 2 s, a healthy Groq call takes well under 1 s.
 */
export const LLM_DEFAULTS = { timeoutMs: 5000, primaryBudgetMs: 6000 } as const;

/** The answer cache under `keyPrefix` on Redis (a hosted site's namespace), else a bounded LRU in this process. */
export const answerCacheLayerWith = (keyPrefix: string | undefined) =>
  chosen(({ redis }) =>
    redis === undefined
      ? MemoryAnswerCache.layer()
      : chosenLazily(
          () => import("../../adapters/store-redis/index.ts"),
          ({ RedisAnswerCache }) =>
            RedisAnswerCache.layer({
              url: redis,
              ...(keyPrefix === undefined ? {} : { keyPrefix, shareConnection: true }),
            }).pipe(Layer.orDie),
        ),
  );

/** The answer cache: shared on Redis when REDIS_URL is set, else a bounded LRU in this process. */
export const answerCacheLayer = answerCacheLayerWith(undefined);

/**
 * Groq (LLM_API_KEY set) behind the answer cache, falling back to extractive answers; without a
 * key, extractive only (nothing to save by caching a few milliseconds of local work).
 */
export const generatorLayer = (settings: GeneratorSettings = {}) =>
  chosen(({ llm }) =>
    llm === undefined
      ? ExtractiveGenerator.layer
      : chosenLazily(
          () =>
            Promise.all([
              import("../../adapters/llm-groq/index.ts"),
              import("../../adapters/llm-fallback/index.ts"),
            ]),
          ([GroqGenerator, { withCache, withFallback }]) =>
            withFallback(
              withCache(
                GroqGenerator.layer({
                  apiKey: llm.apiKey,
                  model: llm.model,
                  baseUrl: llm.baseUrl,
                  productName: llm.productName,
                  timeoutMs: settings.timeoutMs ?? LLM_DEFAULTS.timeoutMs,
                }),
                settings,
              ),
              ExtractiveGenerator.layer,
              { primaryBudgetMs: LLM_DEFAULTS.primaryBudgetMs, ...settings },
            ).pipe(Layer.provide(settings.cache ?? answerCacheLayer)),
        ),
  );

/** `layer` built over `config`: for programs that need one port, not the whole app. */
export const withSettings = <A, E, R>(config: AppConfig, layer: Layer.Layer<A, E, R>) =>
  Layer.provide(layer, Layer.succeed(AppSettings)(config));

/** Where the index lives, for messages (never includes the API key). */
export const describeIndex = (vector: VectorConfig): string =>
  vector.kind === "local"
    ? vector.indexPath
    : `Chroma collection "${vector.collection}" at ${vector.url ?? "Chroma Cloud"}`;
