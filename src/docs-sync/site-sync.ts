/**
 * One sync of a docs site into the configured index, for the CLI and the service's background
 * sync alike: the crawler's bounds from the configuration, the index layer it names, and the
 * page records kept beside the index between runs.
 */
import { dirname, join } from "node:path";
import * as Effect from "effect/Effect";
import type * as Result from "effect/Result";
import {
  type CrawlProgress,
  type CrawlSettings,
  DEFAULT_CRAWL,
  fileSiteState,
  ingestSite,
  type SiteReport,
  type SiteSyncFailed,
  siteCollection,
} from "../../adapters/docs-ingest/index.ts";
import type { AppConfig } from "../../core/config/config.ts";
import type { EmbeddingFailed, RetrievalFailed } from "../../core/ports/retrieval.ts";
import { indexLayer, withSettings } from "../runtime/adapter-layers.ts";

export interface SiteSyncOptions {
  readonly collection?: string | undefined;
  /** Overrides of the configured crawler bounds (the CLI's flags). */
  readonly crawl?: Partial<CrawlSettings>;
  readonly rebuild?: boolean;
  readonly onCrawl?: (progress: CrawlProgress) => void;
  readonly onEmbed?: (done: number, total: number) => void;
}

/** The crawler's bounds the configuration sets. */
export const crawlSettingsOf = (config: AppConfig): CrawlSettings => ({
  ...DEFAULT_CRAWL,
  maxPages: config.ceilings["docs-pages"],
  concurrency: config.docsSite.concurrency,
  delayMs: config.docsSite.delayMs,
  maxBytes: config.docsSite.maxPageBytes,
  allowPrivate: config.docsSite.allowPrivate,
});

/** Where a collection's page records live: beside the local index file, or under .data/ with Chroma. */
export const siteStatePath = (config: AppConfig, collection: string): string =>
  join(
    config.vector.kind === "local" ? dirname(config.vector.indexPath) : ".data",
    "sites",
    `${collection}.json`,
  );

export type SiteSyncOutcome = Result.Result<SiteReport, SiteSyncFailed | RetrievalFailed | EmbeddingFailed>;

/** Syncs the site at `start` into the configured index; never throws. */
export const syncSite = (
  config: AppConfig,
  start: string,
  options: SiteSyncOptions = {},
): Promise<SiteSyncOutcome> => {
  const collection = options.collection ?? config.docsSite.collection ?? siteCollection(start);
  const program = ingestSite(start, {
    collection,
    crawl: { ...crawlSettingsOf(config), ...options.crawl },
    state: fileSiteState(siteStatePath(config, collection)),
    onCrawl: options.onCrawl,
    onProgress: options.onEmbed,
  }).pipe(Effect.provide(withSettings(config, indexLayer({ rebuild: options.rebuild }))));
  return Effect.runPromise(Effect.result(program));
};
