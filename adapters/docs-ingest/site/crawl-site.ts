/**
 * A whole site, read politely: robots.txt first, then the pages discovery lists (or the links
 * a crawl finds under the start path), a few at a time with a pause, each asked "changed
 * since?" when the last sync knew it. Duplicates fold: a page's declared canonical URL names
 * it, and pages with the same content are one page. Nothing here writes to an index: the
 * crawl ends in a list of pages, so a failed crawl cannot leave half an index behind.
 */
import type { ParsedDocument } from "../parsed.ts";
import { addressGuard } from "./address-guard.ts";
import type { CrawlProgress, CrawlSettings } from "./crawl-settings.ts";
import { type DiscoveryFailed, discover, loadRobots } from "./discover.ts";
import { pageKey } from "./page-links.ts";
import { readPage } from "./read-page.ts";
import { CRAWLER_AGENT, type Robots } from "./robots.ts";
import type { FetchFailure, FetchLimits } from "./safe-fetch.ts";
import { inScope, namedAsFile, type SiteScope, scopeOf, sourceOf } from "./site-scope.ts";
import type { PageRecord, SiteState } from "./site-state.ts";

export type SitePage =
  | {
      readonly kind: "fetched";
      /** The page's URL as cited: its canonical URL when it declares one in scope. */
      readonly url: string;
      readonly document: ParsedDocument;
      readonly record: PageRecord;
      readonly changed: boolean;
    }
  /** Not downloaded (304, or an unchanged sitemap lastmod) or failed this time: the index keeps its chunks. */
  | { readonly kind: "kept"; readonly record: PageRecord };

export interface CrawlError {
  readonly failure: FetchFailure;
  readonly url: string;
  readonly detail: string;
}

export interface Skipped {
  /** Responses that were no page (images, PDFs, archives) and links named like files. */
  readonly notPages: number;
  readonly robots: number;
  readonly overCap: number;
  readonly duplicates: number;
  readonly noindex: number;
  readonly gone: number;
  /** One URL of each kind, for the report's lines. */
  readonly examples: Readonly<Partial<Record<"notPages" | "robots" | "overCap", string>>>;
}

export interface CrawlResult {
  readonly kind: "crawled";
  readonly via: string;
  /** Pages by the URL they were requested at. */
  readonly pages: ReadonlyMap<string, SitePage>;
  readonly skipped: Skipped;
  readonly errors: ReadonlyArray<CrawlError>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Job {
  readonly url: string;
  readonly lastmod: string | undefined;
}

/** Runs `work` over `items`, `concurrency` at a time. */
const pool = async <A>(items: ReadonlyArray<A>, concurrency: number, work: (item: A) => Promise<void>) => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
};

/**
 * Pages with the same content are one: the one found first stays (the start page, or the page
 * the navigation links to before any alias of it).
 */
const foldDuplicates = (pages: Map<string, SitePage>, order: ReadonlyMap<string, number>): number => {
  const byHash = new Map<string, string>();
  let folded = 0;
  const urls = [...pages.keys()].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  for (const url of urls) {
    const page = pages.get(url)!;
    if (page.kind === "fetched" && page.document.sections.length === 0) continue;
    const first = byHash.get(page.record.hash);
    if (first === undefined) byHash.set(page.record.hash, url);
    else if (pages.get(first)?.record.source !== page.record.source) {
      pages.delete(url);
      folded++;
    }
  }
  return folded;
};

export const crawlSite = async (
  start: string,
  settings: CrawlSettings,
  previous: SiteState | undefined,
  onProgress: (progress: CrawlProgress) => void = () => undefined,
): Promise<CrawlResult | DiscoveryFailed> => {
  const scope: SiteScope = scopeOf(start);
  const limits: FetchLimits = {
    origins: new Set([scope.origin]),
    maxBytes: settings.maxBytes,
    maxRedirects: settings.maxRedirects,
    timeoutMs: settings.timeoutMs,
    userAgent: `${CRAWLER_AGENT}/1.0`,
    pinHost: addressGuard({ allowPrivate: settings.allowPrivate }),
  };
  const robots: Robots | DiscoveryFailed = await loadRobots(scope.origin, limits);
  if ("kind" in robots) return robots;
  const found = await discover(start, scope, robots, limits);
  if (found.kind === "discovery-failed") return found;

  const crawling = found.kind === "crawl";
  const delayMs = Math.max(settings.delayMs, robots.crawlDelayMs ?? 0);
  const concurrency = robots.crawlDelayMs === undefined ? settings.concurrency : 1;
  const pages = new Map<string, SitePage>();
  // Sources taken so far: two URLs cited as one page (a canonical, a redirect) are one page.
  const claimed = new Set<string>();
  const errors: CrawlError[] = [];
  const counts = { notPages: 0, robots: 0, overCap: 0, duplicates: 0, noindex: 0, gone: 0 };
  const examples: { notPages?: string; robots?: string; overCap?: string } = {};
  const progress = { found: 0, done: 0, changed: 0, unchanged: 0, failed: 0 };
  // Every URL met, in the order it was met (the order duplicates are folded in).
  const queued = new Map<string, number>();
  let queue: Job[] = [];

  const skip = (kind: "notPages" | "robots" | "overCap", url: string) => {
    counts[kind]++;
    examples[kind] ??= url;
  };
  const enqueue = (url: string, lastmod?: string) => {
    const key = pageKey(url);
    if (queued.has(key) || !inScope(scope, key)) return;
    queued.set(key, queued.size);
    if (!robots.allows(key)) return skip("robots", key);
    if (namedAsFile(key)) return skip("notPages", key);
    if (progress.found >= settings.maxPages) return skip("overCap", key);
    progress.found++;
    queue.push({ url: key, lastmod });
  };
  const follow = (links: ReadonlyArray<string> | undefined) => {
    if (crawling) for (const link of links ?? []) enqueue(link);
  };

  const visit = async (job: Job) => {
    const before = previous?.pages[job.url];
    if (job.lastmod !== undefined && before?.lastmod === job.lastmod) {
      claimed.add(before.source);
      pages.set(job.url, { kind: "kept", record: before });
      progress.unchanged++;
      return;
    }
    const read = await readPage(job.url, limits, { etag: before?.etag, lastModified: before?.lastModified });
    if (read.kind === "not-modified" && before !== undefined) {
      claimed.add(before.source);
      pages.set(job.url, { kind: "kept", record: { ...before, lastmod: job.lastmod } });
      progress.unchanged++;
      follow(before.links);
    } else if (read.kind === "gone") counts.gone++;
    else if (read.kind === "not-a-page") skip("notPages", job.url);
    else if (read.kind === "failed" || read.kind === "not-modified") {
      const failure =
        read.kind === "failed"
          ? read
          : { failure: "http-error" as const, detail: "304 to a request without validators" };
      errors.push({ failure: failure.failure, url: job.url, detail: failure.detail });
      progress.failed++;
      if (before !== undefined && !claimed.has(before.source)) {
        claimed.add(before.source);
        pages.set(job.url, { kind: "kept", record: before });
      }
    } else {
      if (!queued.has(pageKey(read.url))) queued.set(pageKey(read.url), queued.size);
      const canonical = read.links.canonical;
      const url = canonical !== undefined && inScope(scope, canonical) ? canonical : pageKey(read.url);
      if (!read.links.nofollow) follow(read.links.links);
      const source = sourceOf(scope, url);
      if (read.links.noindex) counts.noindex++;
      else if (claimed.has(source)) counts.duplicates++;
      else {
        claimed.add(source);
        const record: PageRecord = {
          source,
          hash: read.hash,
          etag: read.etag,
          lastModified: read.lastModified,
          lastmod: job.lastmod,
          links: crawling ? read.links.links.filter((link) => inScope(scope, link)) : undefined,
        };
        const changed = before?.hash !== read.hash;
        if (changed) progress.changed++;
        else progress.unchanged++;
        pages.set(job.url, { kind: "fetched", url, document: read.document, record, changed });
      }
    }
    await sleep(delayMs);
  };

  if (found.kind === "one-file") enqueue(found.url);
  else if (found.kind === "crawl") for (const seed of found.seeds) enqueue(seed);
  else for (const entry of found.entries) enqueue(entry.url, entry.lastmod);
  while (queue.length > 0) {
    const wave = queue;
    queue = [];
    await pool(wave, concurrency, async (job) => {
      await visit(job);
      progress.done++;
      onProgress({ ...progress });
    });
  }
  counts.duplicates += foldDuplicates(pages, queued);
  return {
    kind: "crawled",
    via: found.kind === "listed" ? found.via : found.kind === "crawl" ? "crawl" : "llms-full.txt",
    pages,
    skipped: { ...counts, examples },
    errors,
  };
};
