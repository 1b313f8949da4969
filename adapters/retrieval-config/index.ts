/** Retrieval adapters chosen from AppConfig: `retrievalLayerFromConfig(config)` gives Retriever + Embedder. */
export {
  describeIndex,
  embedderLayerFromConfig,
  type IndexLoaded,
  indexLayerFromConfig,
  type RetrievalEvents,
  retrievalLayerFromConfig,
} from "./from-config.ts";
