/** `npm run ingest -- <url>`: one sync of a docs site, with readable progress and problems. */
import type { CrawlSettings } from "../../adapters/docs-ingest/index.ts";
import type { AppConfig } from "../../core/config/config.ts";
import { syncSite } from "../docs-sync/site-sync.ts";
import { describeIndex } from "../runtime/adapter-layers.ts";
import { crawlProgress, errorLines, skippedLines, summaryLine } from "./site-lines.ts";

export interface UrlFlags {
  readonly source?: string | undefined;
  readonly rebuild?: boolean | undefined;
  readonly "max-pages"?: string | undefined;
  readonly concurrency?: string | undefined;
  readonly delay?: string | undefined;
  readonly "allow-private"?: boolean | undefined;
}

type Fail = (message: string, code: 1 | 2) => never;

const whole = (name: string, text: string | undefined, min: number, fail: Fail): number | undefined => {
  if (text === undefined) return undefined;
  if (/^\d{1,9}$/.test(text) && Number(text) >= min) return Number(text);
  return fail(`--${name} must be a whole number of at least ${min} (got "${text}")`, 2);
};

export const ingestUrl = async (url: string, flags: UrlFlags, config: AppConfig, fail: Fail) => {
  if (!URL.canParse(url)) fail(`not a URL: ${url}`, 2);
  const crawl: Partial<CrawlSettings> = {
    ...(flags["allow-private"] === true ? { allowPrivate: true } : {}),
    ...Object.fromEntries(
      [
        ["maxPages", whole("max-pages", flags["max-pages"], 1, fail)],
        ["concurrency", whole("concurrency", flags.concurrency, 1, fail)],
        ["delayMs", whole("delay", flags.delay, 0, fail)],
      ].filter(([, value]) => value !== undefined),
    ),
  };
  const started = performance.now();
  const write = (text: string) => process.stderr.write(text);
  const outcome = await syncSite(config, url, {
    collection: flags.source,
    crawl,
    rebuild: flags.rebuild,
    onCrawl: crawlProgress(process.stderr.isTTY === true, write),
  });
  if (outcome._tag === "Failure") {
    const error = outcome.failure;
    if (error._tag === "SiteSyncFailed")
      return fail(`sync failed, the index is unchanged (${error.url}: ${error.detail})`, 1);
    return fail(`sync failed while writing the index (${error.message}); run it again`, 1);
  }
  const report = outcome.success;
  for (const line of [...errorLines(report.errors), ...skippedLines(report)]) console.log(line);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(summaryLine(report, describeIndex(config.vector), seconds));
  console.log(
    `The index holds: ${report.collections.map((c) => `"${c.name}" (${c.chunks} chunks)`).join(", ")}`,
  );
};
