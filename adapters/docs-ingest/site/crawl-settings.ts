/** The bounds of one crawl, and the defaults a site owner would call polite. */

export interface CrawlSettings {
  /** Pages taken at most; the rest are counted and left out. */
  readonly maxPages: number;
  /** Requests in flight at once (1 when robots.txt sets a Crawl-delay). */
  readonly concurrency: number;
  /** Pause of each worker after each request (robots.txt's Crawl-delay when longer). */
  readonly delayMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly timeoutMs: number;
  /** Whether private, loopback and link-local addresses may be fetched (tests, intranet docs). */
  readonly allowPrivate: boolean;
}

export const DEFAULT_CRAWL: CrawlSettings = {
  maxPages: 5000,
  concurrency: 4,
  delayMs: 250,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  timeoutMs: 15_000,
  allowPrivate: false,
};

/** How far a crawl has come, for a progress bar or a log line. */
export interface CrawlProgress {
  /** Pages known so far (listed or linked, in scope, allowed). */
  readonly found: number;
  /** Pages answered so far (downloaded, unchanged, gone or failed). */
  readonly done: number;
  /** Downloaded with content that differs from the last sync's (or new). */
  readonly changed: number;
  readonly unchanged: number;
  readonly failed: number;
}
