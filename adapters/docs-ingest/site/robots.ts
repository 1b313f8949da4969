/**
 * robots.txt, read with `robots-parser`: which URLs the crawler may fetch, the site's
 * Crawl-delay and its Sitemap lines. No robots.txt (404) means everything is allowed.
 */
import robotsParser from "robots-parser";

export interface Robots {
  readonly allows: (url: string) => boolean;
  readonly crawlDelayMs: number | undefined;
  readonly sitemaps: ReadonlyArray<string>;
}

/** The crawler's product token, matched against robots.txt User-agent lines. */
export const CRAWLER_AGENT = "docs-chat-crawler";

export const parseRobots = (robotsUrl: string, text: string): Robots => {
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(CRAWLER_AGENT);
  return {
    // robots-parser answers undefined for a URL of another origin: never ours to fetch anyway.
    allows: (url) => robots.isAllowed(url, CRAWLER_AGENT) === true,
    crawlDelayMs: delay === undefined ? undefined : delay * 1000,
    sitemaps: robots.getSitemaps(),
  };
};

export const allowEverything: Robots = { allows: () => true, crawlDelayMs: undefined, sitemaps: [] };
