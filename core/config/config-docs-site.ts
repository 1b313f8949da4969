/**
 * The docs-site part of the configuration: DOCS_URL names the site the service keeps in sync
 * (every DOCS_SYNC_EVERY, default 6h), and the crawler's bounds (its page cap is a ceiling,
 * docs-pages). Private and loopback addresses are refused unless DOCS_ALLOW_PRIVATE says the
 * docs live on such a network.
 */
import { type Decoded, envInteger, Flag, field, Text } from "./config-fields.ts";

export interface DocsSiteConfig {
  /** The site, sitemap or llms.txt to sync; undefined: no background sync. */
  readonly url: string | undefined;
  readonly syncEveryMs: number;
  /** The collection the site replaces; undefined: the site's host name. */
  readonly collection: string | undefined;
  readonly allowPrivate: boolean;
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

const CRAWL = { concurrency: 4, delayMs: 250, maxPageBytes: 5 * 1024 * 1024 } as const;

/** The docs site's variables (DOCS_URL is the default site's, core/config/config-site.ts). */
export const DOCS_SITE_FIELDS = {
  DOCS_SYNC_EVERY: field("must be a duration like 90s, 15m, 6h or 1d", (input) => {
    const ms = parseDuration(String(input));
    return ms !== undefined && ms >= 1_000 ? ms : undefined;
  }),
  DOCS_COLLECTION: Text,
  DOCS_ALLOW_PRIVATE: Flag,
  DOCS_CONCURRENCY: envInteger(1, 32),
  DOCS_DELAY_MS: envInteger(0, 60_000),
  DOCS_MAX_PAGE_BYTES: envInteger(1024, 100 * 1024 * 1024),
};

type DocsSiteSettings = Decoded<typeof DOCS_SITE_FIELDS>;

/** The crawler's settings; `url` is the default site's DOCS_URL, when valid. */
export const docsSiteOf = (
  s: DocsSiteSettings,
  url: string | undefined,
  text: (name: string) => string | undefined,
  problems: string[],
): DocsSiteConfig => {
  if (text("DOCS_URL") === undefined && text("DOCS_SYNC_EVERY") !== undefined)
    problems.push("DOCS_SYNC_EVERY: needs DOCS_URL (the site to sync)");
  return {
    url,
    syncEveryMs: s.DOCS_SYNC_EVERY ?? DEFAULT_SYNC_EVERY_MS,
    collection: s.DOCS_COLLECTION,
    allowPrivate: s.DOCS_ALLOW_PRIVATE ?? false,
    concurrency: s.DOCS_CONCURRENCY ?? CRAWL.concurrency,
    delayMs: s.DOCS_DELAY_MS ?? CRAWL.delayMs,
    maxPageBytes: s.DOCS_MAX_PAGE_BYTES ?? CRAWL.maxPageBytes,
  };
};
