/**
 * The docs-site part of the configuration: DOCS_URL names the site the service keeps in sync
 * (every DOCS_SYNC_EVERY, default 6h), and the crawler's bounds. Private and loopback
 * addresses are refused unless DOCS_ALLOW_PRIVATE says the docs live on such a network.
 */
import type { Reader } from "./config-reader.ts";

export interface DocsSiteConfig {
  /** The site, sitemap or llms.txt to sync; undefined: no background sync. */
  readonly url: string | undefined;
  readonly syncEveryMs: number;
  /** The collection the site replaces; undefined: the site's host name. */
  readonly collection: string | undefined;
  readonly allowPrivate: boolean;
  readonly maxPages: number;
  readonly concurrency: number;
  readonly delayMs: number;
  readonly maxPageBytes: number;
}

export const DEFAULT_SYNC_EVERY_MS = 6 * 3_600_000;

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "15m", "6h", "1d" in ms; undefined when not such a duration. */
export const parseDuration = (text: string): number | undefined => {
  const match = /^(\d{1,6})(s|m|h|d)$/.exec(text);
  return match === null ? undefined : Number(match[1]) * UNIT_MS[match[2]!]!;
};

const parseEvery = (read: Reader): number => {
  const text = read.text("DOCS_SYNC_EVERY");
  if (text === undefined) return DEFAULT_SYNC_EVERY_MS;
  const ms = parseDuration(text);
  if (ms !== undefined && ms >= 1_000) return ms;
  read.problems.push(`DOCS_SYNC_EVERY: must be a duration like 90s, 15m, 6h or 1d (got "${text}")`);
  return DEFAULT_SYNC_EVERY_MS;
};

/** The crawler's settings; `url` is the default site's DOCS_URL (core/config-site.ts), when valid. */
export const parseDocsSite = (read: Reader, url: string | undefined): DocsSiteConfig => {
  const syncEveryMs = parseEvery(read);
  if (url === undefined && read.text("DOCS_URL") === undefined && read.text("DOCS_SYNC_EVERY") !== undefined)
    read.problems.push("DOCS_SYNC_EVERY: needs DOCS_URL (the site to sync)");
  return {
    url,
    syncEveryMs,
    collection: read.text("DOCS_COLLECTION"),
    allowPrivate: read.flag("DOCS_ALLOW_PRIVATE"),
    maxPages: read.integer("DOCS_MAX_PAGES", 5000, 1, 1_000_000),
    concurrency: read.integer("DOCS_CONCURRENCY", 4, 1, 32),
    delayMs: read.integer("DOCS_DELAY_MS", 250, 0, 60_000),
    maxPageBytes: read.integer("DOCS_MAX_PAGE_BYTES", 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  };
};
