/**
 * How a site's pages are found, in the order a careful crawler tries: the URL given is itself
 * a sitemap or an llms.txt; else the Sitemap lines of robots.txt; else /sitemap.xml (and
 * sitemap indexes below any of them); else a crawl of the links under the start path.
 */
import { llmsKind, llmsTxtLinks } from "./llms-txt-links.ts";
import { allowEverything, parseRobots, type Robots } from "./robots.ts";
import { type FetchFailure, type FetchLimits, gunzipCapped, safeFetch } from "./safe-fetch.ts";
import { inScope, type SiteScope } from "./site-scope.ts";
import { parseSitemap, type SitemapEntry } from "./sitemap.ts";

export type Discovery =
  | { readonly kind: "listed"; readonly via: string; readonly entries: ReadonlyArray<SitemapEntry> }
  | { readonly kind: "crawl"; readonly seeds: ReadonlyArray<string> }
  | { readonly kind: "one-file"; readonly url: string };

/** Discovery could not start: the sync fails and the index keeps what it has. */
export interface DiscoveryFailed {
  readonly kind: "discovery-failed";
  readonly failure: FetchFailure | "robots" | "not-found";
  readonly url: string;
  readonly detail: string;
}

/** At most this many sitemaps are read (an index of indexes cannot make a crawler loop). */
const MAX_SITEMAPS = 50;

type TextOutcome =
  | { readonly kind: "text"; readonly text: string; readonly url: string }
  | { readonly kind: "missing" }
  | { readonly kind: "failed"; readonly failure: FetchFailure; readonly detail: string };

/** GETs a text resource (robots.txt, a sitemap, llms.txt), gunzipping a .gz body. */
export const fetchText = async (url: string, limits: FetchLimits): Promise<TextOutcome> => {
  const outcome = await safeFetch(url, limits, () => true);
  if (outcome.kind === "failed") return outcome;
  if (outcome.kind !== "body") return { kind: "missing" };
  const body = gunzipCapped(outcome.body, limits.maxBytes);
  if (body === undefined)
    return { kind: "failed", failure: "too-large", detail: "does not unpack within the size cap" };
  return { kind: "text", text: new TextDecoder().decode(body), url: outcome.url };
};

/** robots.txt of the start's origin; missing means allowed, unreadable stops the sync. */
export const loadRobots = async (origin: string, limits: FetchLimits): Promise<Robots | DiscoveryFailed> => {
  const url = `${origin}/robots.txt`;
  const outcome = await fetchText(url, limits);
  if (outcome.kind === "missing") return allowEverything;
  if (outcome.kind === "failed")
    // A server error on robots.txt means "do not crawl now" (RFC 9309); a dead host stays "unreachable".
    return outcome.failure === "http-error"
      ? {
          kind: "discovery-failed",
          failure: "robots",
          url,
          detail: `robots.txt unreadable (${outcome.detail})`,
        }
      : { kind: "discovery-failed", failure: outcome.failure, url, detail: outcome.detail };
  return parseRobots(url, outcome.text);
};

/** Every page entry below the sitemaps at `urls` (indexes followed), in scope, without repeats. */
const readSitemaps = async (
  urls: ReadonlyArray<string>,
  scope: SiteScope,
  limits: FetchLimits,
): Promise<{ found: boolean; entries: SitemapEntry[] } | DiscoveryFailed> => {
  const queue = [...urls];
  const seen = new Set<string>();
  const entries = new Map<string, SitemapEntry>();
  let found = false;
  while (queue.length > 0 && seen.size < MAX_SITEMAPS) {
    const url = queue.shift()!;
    if (seen.has(url) || !limits.origins.has(new URL(url).origin)) continue;
    seen.add(url);
    const outcome = await fetchText(url, limits);
    if (outcome.kind === "missing") continue;
    if (outcome.kind === "failed")
      return { kind: "discovery-failed", failure: outcome.failure, url, detail: outcome.detail };
    const sitemap = parseSitemap(outcome.text, outcome.url);
    if (sitemap.kind === "index") queue.push(...sitemap.sitemaps);
    if (sitemap.kind !== "pages") continue;
    found = true;
    for (const entry of sitemap.entries)
      if (inScope(scope, entry.url) && !entries.has(entry.url)) entries.set(entry.url, entry);
  }
  return { found, entries: [...entries.values()] };
};

export const discover = async (
  start: string,
  scope: SiteScope,
  robots: Robots,
  limits: FetchLimits,
): Promise<Discovery | DiscoveryFailed> => {
  const llms = llmsKind(start);
  if (llms === "full") return { kind: "one-file", url: start };
  if (llms === "list") {
    const outcome = await fetchText(start, limits);
    if (outcome.kind === "failed")
      return { kind: "discovery-failed", failure: outcome.failure, url: start, detail: outcome.detail };
    if (outcome.kind === "missing")
      return { kind: "discovery-failed", failure: "not-found", url: start, detail: "no llms.txt there" };
    const entries = llmsTxtLinks(outcome.text, outcome.url)
      .filter((url) => limits.origins.has(new URL(url).origin))
      .map((url) => ({ url, lastmod: undefined }));
    return { kind: "listed", via: "llms.txt", entries };
  }
  const given = /\.xml(\.gz)?$/i.test(new URL(start).pathname);
  const candidates = given
    ? [start]
    : robots.sitemaps.length > 0
      ? [...robots.sitemaps]
      : [`${scope.origin}${scope.root}sitemap.xml`, `${scope.origin}/sitemap.xml`];
  const sitemaps = await readSitemaps(candidates, scope, limits);
  if ("kind" in sitemaps) return sitemaps;
  if (given && !sitemaps.found)
    return { kind: "discovery-failed", failure: "not-found", url: start, detail: "no sitemap there" };
  if (sitemaps.entries.length > 0) return { kind: "listed", via: "sitemap", entries: sitemaps.entries };
  return { kind: "crawl", seeds: [start] };
};
