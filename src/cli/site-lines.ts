/**
 * What `npm run ingest -- <url>` prints: a progress bar on a terminal (pages found, fetched,
 * changed, unchanged, failed), a plain line every so often otherwise, then one line for each
 * kind of problem met and a summary.
 */
import type {
  CrawlError,
  CrawlProgress,
  FetchFailure,
  SiteReport,
} from "../../adapters/docs-ingest/index.ts";

/** What each kind of failure means to the person who ran the sync. */
const FAILURE_TEXT = {
  unreachable: "host unreachable",
  tls: "TLS failure (certificate or handshake)",
  timeout: "no answer in time",
  "off-origin-redirect": "redirected to another origin (refused)",
  "too-many-redirects": "too many redirects",
  "too-large": "larger than the page size cap",
  "private-address": "private or loopback address (refused; DOCS_ALLOW_PRIVATE=true allows it)",
  "http-error": "server error",
} satisfies Record<FetchFailure, string>;

/** A one-line progress report for the terminal (redrawn) or a log (every 100 pages and at the end). */
export const crawlProgress = (isTty: boolean, write: (text: string) => void) => {
  let lastLine = 0;
  return (p: CrawlProgress) => {
    const text = `${p.done}/${p.found} pages: ${p.changed} changed, ${p.unchanged} unchanged, ${p.failed} failed`;
    if (isTty) {
      const width = 24;
      const filled = p.found === 0 ? 0 : Math.round((p.done / p.found) * width);
      write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${text}`);
      if (p.done === p.found) write("\n");
    } else if (p.done - lastLine >= 100 || p.done === p.found) {
      lastLine = p.done;
      write(`${text}\n`);
    }
  };
};

/** One line per kind of failure: how many pages, what it means, the first page and its detail. */
export const errorLines = (errors: ReadonlyArray<CrawlError>): ReadonlyArray<string> => {
  const byKind = new Map<FetchFailure, CrawlError[]>();
  for (const error of errors) byKind.set(error.failure, [...(byKind.get(error.failure) ?? []), error]);
  return [...byKind].map(([kind, list]) => {
    const first = list[0]!;
    const pages = list.length === 1 ? "1 page" : `${list.length} pages`;
    return `${pages}: ${FAILURE_TEXT[kind]}, e.g. ${first.url} (${first.detail}); the index keeps what it had of them`;
  });
};

/** Lines for what was left out on purpose. */
export const skippedLines = (report: SiteReport): ReadonlyArray<string> => {
  const { skipped } = report;
  const lines: string[] = [];
  const example = (url: string | undefined) => (url === undefined ? "" : `, e.g. ${url}`);
  if (skipped.robots > 0)
    lines.push(
      `${skipped.robots} pages disallowed by robots.txt, not fetched${example(skipped.examples.robots)}`,
    );
  if (skipped.notPages > 0)
    lines.push(
      `${skipped.notPages} links or responses were not pages (images, PDFs, archives...)${example(skipped.examples.notPages)}`,
    );
  if (skipped.overCap > 0)
    lines.push(
      `${skipped.overCap} pages over the page cap, left out${example(skipped.examples.overCap)} (raise DOCS_MAX_PAGES or --max-pages)`,
    );
  if (skipped.duplicates > 0)
    lines.push(`${skipped.duplicates} duplicate pages folded into their canonical page`);
  if (skipped.noindex > 0) lines.push(`${skipped.noindex} pages marked noindex, left out`);
  if (skipped.gone > 0) lines.push(`${skipped.gone} listed or linked pages answered 404/410`);
  return lines;
};

/** The summary: what the collection holds now and what this sync changed. */
export const summaryLine = (report: SiteReport, where: string, seconds: string): string =>
  `Synced ${report.pages} pages (found by ${report.via}) as "${report.collection}" into ${where} in ${seconds} s: ` +
  `${report.fetched} downloaded, ${report.changed} changed, ${report.removed} removed, ${report.errors.length} errors; ` +
  `chunks ${report.chunks.added} added, ${report.chunks.updated} updated, ${report.chunks.removed} removed`;
