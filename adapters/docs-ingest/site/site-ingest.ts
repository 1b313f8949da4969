/**
 * A docs site into a named collection, page by page: crawl first (nothing is written while
 * pages are still coming), then chunk the pages that were downloaded, keep the chunks of the
 * pages that did not change (or could not be read this time), remove the chunks of pages that
 * are gone, embed only new or changed chunks, and persist once. A crawl that cannot start
 * (host unreachable, robots.txt unreadable, no pages) fails and leaves the index as it was.
 */
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { ChunkIndex, Embedder } from "../../../core/ports/retrieval.ts";
import { DEFAULT_CHUNKING } from "../chunker.ts";
import { chunkParsed, contentHash } from "../document.ts";
import {
  COLLECTION_NAME,
  collectionsOf,
  entriesOf,
  type IngestOptions,
  planChanges,
  writeChanges,
} from "../ingest-collection.ts";
import type { CrawlProgress, CrawlSettings } from "./crawl-settings.ts";
import { type CrawlError, crawlSite, type SitePage, type Skipped } from "./crawl-site.ts";
import type { PageRecord, SiteStateStore } from "./site-state.ts";

/** Why a sync did not change the index; `failure` names the kind for a one-line report. */
export class SiteSyncFailed extends Schema.TaggedError<SiteSyncFailed>()("SiteSyncFailed", {
  failure: Schema.String,
  url: Schema.String,
  detail: Schema.String,
}) {}

export interface SiteIngestOptions extends Pick<IngestOptions, "batchSize" | "onProgress"> {
  readonly collection?: string | undefined;
  readonly crawl: CrawlSettings;
  readonly state: SiteStateStore;
  readonly onCrawl?: (progress: CrawlProgress) => void;
}

export interface SiteReport {
  readonly collection: string;
  /** How the pages were found: "sitemap", "llms.txt", "crawl" or "llms-full.txt". */
  readonly via: string;
  /** Pages the collection holds now. */
  readonly pages: number;
  /** Pages downloaded (200) this time. */
  readonly fetched: number;
  /** Pages new or with different content. */
  readonly changed: number;
  /** Pages whose chunks were removed (gone from the site, its sitemap or its links). */
  readonly removed: number;
  readonly skipped: Skipped;
  readonly errors: ReadonlyArray<CrawlError>;
  readonly chunks: { readonly added: number; readonly updated: number; readonly removed: number };
  readonly collections: ReadonlyArray<{ readonly name: string; readonly chunks: number }>;
}

/** The collection a site goes into unless named: its host name ("docs.example.com"). */
export const siteCollection = (start: string): string => new URL(start).hostname;

/** The page source a stored chunk id belongs to: ids are `collection/source:headingHash:ordinal`. */
const sourceOfId = (id: string, collection: string): string =>
  id.slice(collection.length + 1).replace(/:[0-9a-f]{12}:\d+$/, "");

/** Brings the collection in line with the site at `start`. */
export const ingestSite = Effect.fn("ingestSite")(function* (start: string, options: SiteIngestOptions) {
  const collection = options.collection ?? siteCollection(start);
  if (!COLLECTION_NAME.test(collection))
    return yield* new SiteSyncFailed({
      failure: "bad-collection",
      url: start,
      detail: `collection name "${collection}" must be 1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit`,
    });
  const previous = options.state.load(start);
  const crawl = yield* Effect.promise(() => crawlSite(start, options.crawl, previous, options.onCrawl));
  if (crawl.kind === "discovery-failed")
    return yield* new SiteSyncFailed({ failure: crawl.failure, url: crawl.url, detail: crawl.detail });
  const pages = [...crawl.pages.values()];
  if (pages.length === 0)
    return yield* new SiteSyncFailed({
      failure: "no-pages",
      url: start,
      detail:
        crawl.errors[0] === undefined
          ? "no pages found"
          : `no page could be read (${crawl.errors[0].detail})`,
    });

  const embedder = yield* Embedder;
  const index = yield* ChunkIndex;
  const fetched = pages.filter(
    (page): page is Extract<SitePage, { kind: "fetched" }> => page.kind === "fetched",
  );
  const wanted = fetched.flatMap((page) =>
    chunkParsed(page.record.source, page.document, page.url, DEFAULT_CHUNKING).map((chunk) => {
      const stored = { ...chunk, id: `${collection}/${chunk.id}` };
      // The embedder's name is part of the hash: switching models re-embeds everything.
      return { chunk: stored, hash: contentHash(stored, embedder.name) };
    }),
  );
  const keptSources = new Set(pages.flatMap((page) => (page.kind === "kept" ? [page.record.source] : [])));
  const existing = entriesOf(yield* index.existing, collection);
  const ours = [...existing.keys()].filter((id) => id.startsWith(`${collection}/`));
  const before = new Set(ours.map((id) => sourceOfId(id, collection)));
  // The chunks of kept pages are neither rewritten nor removed.
  for (const id of ours) if (keptSources.has(sourceOfId(id, collection))) existing.delete(id);
  const plan = planChanges(collection, existing, wanted);
  // Nothing changed: no new index version, so running services keep their index and their cached answers.
  if (plan.write.length > 0 || plan.remove.length > 0) yield* writeChanges(plan, options);
  const now = new Set(pages.map((page) => page.record.source));
  const records: Record<string, PageRecord> = {};
  for (const [url, page] of crawl.pages) records[url] = page.record;
  options.state.save({ version: 1, start, pages: records });
  return {
    collection,
    via: crawl.via,
    pages: pages.length,
    fetched: fetched.length,
    changed: fetched.filter((page) => page.changed).length,
    removed: [...before].filter((source) => !now.has(source)).length,
    skipped: crawl.skipped,
    errors: crawl.errors,
    chunks: { added: plan.added, updated: plan.updated, removed: plan.remove.length },
    collections: yield* collectionsOf,
  } satisfies SiteReport;
});
