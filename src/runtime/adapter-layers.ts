/**
 * Which adapter serves each port, chosen once from the configuration: each choice is a layer
 * unwrapped over AppSettings, so programs (the service, the CLIs, the benches) name the port
 * they need and never branch on "local or Chroma", "Groq or extractive" themselves. The store
 * is chosen in app-layer.ts, beside the payment settings that read its durability.
 */
import { Effect, Layer } from "effect";
import { HashEmbedder } from "../../adapters/embed-hash/index.ts";
import { TransformersEmbedder } from "../../adapters/embed-transformers/index.ts";
import * as ExtractiveGenerator from "../../adapters/llm-extractive/index.ts";
import { type FallbackOptions, withFallback } from "../../adapters/llm-fallback/index.ts";
import * as GroqGenerator from "../../adapters/llm-groq/index.ts";
import { ChromaIndex, ChromaRetriever } from "../../adapters/retrieval-chroma/index.ts";
import { LocalIndex, LocalRetriever } from "../../adapters/retrieval-local/index.ts";
import type { AppConfig, VectorConfig } from "../../core/config.ts";
import { AppSettings } from "./app-settings.ts";

/** A layer picked from the configuration when it is built. */
const chosen = <A, E, R>(pick: (config: AppConfig) => Layer.Layer<A, E, R>) =>
  Layer.unwrap(Effect.map(AppSettings, pick));

/** EMBEDDING_MODEL unset or "hash": the download-free hashed embedder; else that transformers model. */
export const embedderLayer = chosen(({ embeddingModel }) =>
  embeddingModel === undefined || embeddingModel === "hash"
    ? HashEmbedder.layer
    : TransformersEmbedder.layer({ model: embeddingModel }),
);

/** The read side: Retriever over the local index file or Chroma, and the Embedder it uses. */
export const retrievalLayer = Layer.provideMerge(
  chosen(({ vector }) =>
    vector.kind === "local"
      ? LocalRetriever.layer({ indexPath: vector.indexPath })
      : ChromaRetriever.layer({ url: vector.url, apiKey: vector.apiKey, collection: vector.collection }),
  ),
  embedderLayer,
);

/** The write side for ingest: ChunkIndex and Embedder; `rebuild` empties the index first. */
export const indexLayer = (options: { readonly rebuild?: boolean } = {}) =>
  Layer.provideMerge(
    chosen(({ vector }) =>
      vector.kind === "local"
        ? LocalIndex.layer({ indexPath: vector.indexPath, rebuild: options.rebuild })
        : ChromaIndex.layer({
            url: vector.url,
            apiKey: vector.apiKey,
            collection: vector.collection,
            rebuild: options.rebuild,
          }),
    ),
    embedderLayer,
  );

export interface GeneratorSettings extends FallbackOptions {
  /** Per LLM call; default 10 s. */
  readonly timeoutMs?: number | undefined;
}

/** Groq (LLM_API_KEY set) falling back to extractive answers; without a key, extractive only. */
export const generatorLayer = (settings: GeneratorSettings = {}) =>
  chosen(({ llm }) =>
    llm === undefined
      ? ExtractiveGenerator.layer
      : withFallback(
          GroqGenerator.layer({
            apiKey: llm.apiKey,
            model: llm.model,
            baseUrl: llm.baseUrl,
            timeoutMs: settings.timeoutMs,
          }),
          ExtractiveGenerator.layer,
          settings,
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
