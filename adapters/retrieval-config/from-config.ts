/**
 * Picks the retrieval adapters from the configuration, so the app and the CLIs never branch
 * on "local or Chroma", "hashed or transformers" themselves. EMBEDDING_MODEL unset (or "hash")
 * means the download-free hashed embedder; no CHROMA_URL / VECTOR_API_KEY means the local
 * index file.
 */
import { Layer } from "effect";
import type { AppConfig, VectorConfig } from "../../core/config.ts";
import { HashEmbedder } from "../embed-hash/index.ts";
import { TransformersEmbedder } from "../embed-transformers/index.ts";
import { ChromaIndex, ChromaRetriever } from "../retrieval-chroma/index.ts";
import { LocalIndex, LocalRetriever } from "../retrieval-local/index.ts";

/** The Embedder named by EMBEDDING_MODEL (hashed vectors when unset or "hash"). */
export const embedderLayerFromConfig = (config: Pick<AppConfig, "embeddingModel">) =>
  config.embeddingModel === undefined || config.embeddingModel === "hash"
    ? HashEmbedder.layer
    : TransformersEmbedder.layer({ model: config.embeddingModel });

/** An index (re)loaded by the running service: at start, and after each finished ingest. */
export interface IndexLoaded {
  readonly reason: "start" | "reload";
  readonly files: number;
  readonly chunks: number;
  readonly version: string;
}

export interface RetrievalEvents {
  readonly onLoad?: (event: IndexLoaded) => void;
  /** A new index that could not be loaded (the current one stays in use). */
  readonly onReloadFailed?: (message: string) => void;
}

const retrieverLayer = (vector: VectorConfig, events: RetrievalEvents) =>
  vector.kind === "local"
    ? LocalRetriever.layer({ indexPath: vector.indexPath, ...events })
    : ChromaRetriever.layer({
        url: vector.url,
        apiKey: vector.apiKey,
        collection: vector.collection,
        onLoad: events.onLoad,
      });

/** Retriever and the Embedder it uses, as configured. */
export const retrievalLayerFromConfig = (
  config: Pick<AppConfig, "vector" | "embeddingModel">,
  events: RetrievalEvents = {},
) => Layer.provideMerge(retrieverLayer(config.vector, events), embedderLayerFromConfig(config));

/** The write side for ingest: ChunkIndex and Embedder, as configured; `rebuild` empties the index first. */
export const indexLayerFromConfig = (
  config: Pick<AppConfig, "vector" | "embeddingModel">,
  options: { readonly rebuild?: boolean } = {},
) => {
  const vector = config.vector;
  const index =
    vector.kind === "local"
      ? LocalIndex.layer({ indexPath: vector.indexPath, rebuild: options.rebuild })
      : ChromaIndex.layer({
          url: vector.url,
          apiKey: vector.apiKey,
          collection: vector.collection,
          rebuild: options.rebuild,
        });
  return Layer.provideMerge(index, embedderLayerFromConfig(config));
};

/** Where the index lives, for messages (never includes the API key). */
export const describeIndex = (vector: VectorConfig): string =>
  vector.kind === "local"
    ? vector.indexPath
    : `Chroma collection "${vector.collection}" at ${vector.url ?? "Chroma Cloud"}`;
