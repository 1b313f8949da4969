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
} from "./ingest-collection.ts";
export { type CrawlProgress, type CrawlSettings, DEFAULT_CRAWL } from "./site/crawl-settings.ts";
export type { CrawlError, Skipped } from "./site/crawl-site.ts";
export type { FetchFailure } from "./site/safe-fetch.ts";
export {
  ingestSite,
  type SiteIngestOptions,
  type SiteReport,
  SiteSyncFailed,
  siteCollection,
} from "./site/site-ingest.ts";
export { fileSiteState, noSiteState, type SiteStateStore } from "./site/site-state.ts";
export { findSourceFiles } from "./walk.ts";
