/** Chroma as the vector index: `ChromaRetriever.layer(options)` (read) and `ChromaIndex.layer(options)` (ingest). */
export * as ChromaIndex from "./chroma-index.ts";
export * as ChromaRetriever from "./chroma-retriever.ts";
export { type ChromaOptions, checkCollectionName, makeClient } from "./client.ts";
