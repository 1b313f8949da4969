/** Document ingestion: parse, chunk, and incrementally write to the configured ChunkIndex. */
export { type ChunkingOptions, countTokens, DEFAULT_CHUNKING } from "./chunker.ts";
export { chunkDocument, indexedText, SUPPORTED_EXTENSIONS } from "./document.ts";
export {
  DEMO_COLLECTION,
  IngestFailed,
  type IngestOptions,
  type IngestReport,
  ingest,
  planChanges,
} from "./ingest.ts";
export { findSourceFiles } from "./walk.ts";
