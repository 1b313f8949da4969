/** Retrieval adapters chosen from AppConfig: `retrievalLayerFromConfig(config)` gives Retriever + Embedder. */
export {
  describeIndex,
  embedderLayerFromConfig,
  indexLayerFromConfig,
  retrievalLayerFromConfig,
} from "./from-config.ts";
