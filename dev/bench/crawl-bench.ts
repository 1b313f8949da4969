/**
 * The crawler over loopback on the PostgreSQL docs (1169 HTML pages, 18 MB) served by the
 * tests' static site: the first sync through the sitemap (pages/s, crawl alone and with
 * chunking, embedding and writing the index), the same site crawled by its links without a
 * sitemap, and a re-sync of the unchanged site: every page asked "changed since?" (all 304),
 * and with sitemap lastmod (no page request at all). Delay 0 and 4 requests at once: the
 * polite default (250 ms per slot) bounds a real site at 16 pages/s whatever the machine.
 *
 *   bun dev/bench/crawl-bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syncSite } from "../../src/docs-sync/site-sync.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { startStaticSite } from "../../test/support/static-site.ts";
import { ensurePostgresDocs } from "./postgres-docs.ts";
import { type Figure, record } from "./report.ts";

const docs = ensurePostgresDocs();
const work = mkdtempSync(join(tmpdir(), "crawl-bench-"));
const site = startStaticSite({ root: docs, sitemap: "plain" });
const crawl = { allowPrivate: true, delayMs: 0, concurrency: 4 } as const;

/** One sync into the index `name`: seconds in all, seconds until the last page was read, pages. */
const timedSync = async (name: string) => {
  const config = defaultConfig({ vector: { kind: "local", indexPath: join(work, name, "index.bin") } });
  const started = performance.now();
  let crawled = 0;
  const outcome = await syncSite(config, `${site.url}/`, {
    crawl,
    onCrawl: (progress) => {
      if (progress.done === progress.found) crawled = performance.now();
    },
  });
  if (outcome._tag === "Failure") throw new Error(`sync failed: ${JSON.stringify(outcome.failure)}`);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, crawlSeconds: (crawled - started) / 1000, report: outcome.success };
};

try {
  const first = await timedSync("sitemap");
  site.resetCounts();
  const unchanged = await timedSync("sitemap");
  const conditional = { ok: site.counts.ok, notModified: site.counts.notModified };
  site.setSitemap("none");
  const linked = await timedSync("links");
  site.setSitemap("lastmod");
  await timedSync("lastmod");
  site.resetCounts();
  const byLastmod = await timedSync("lastmod");
  const requests = site.counts.ok + site.counts.notModified;

  const rate = (pages: number, seconds: number) => `${(pages / seconds).toFixed(0)} pages/s`;
  const pages = first.report.pages;
  const figures: Figure[] = [
    {
      measure: `first sync via the sitemap, crawl alone (${pages} pages)`,
      value: rate(pages, first.crawlSeconds),
    },
    {
      measure: "first sync via the sitemap, with chunking, embedding and writing the index",
      value: `${rate(pages, first.seconds)} (${first.seconds.toFixed(1)} s, ${first.report.chunks.added} chunks)`,
    },
    {
      measure: "first sync by following links (no sitemap), crawl alone",
      value: rate(linked.report.pages, linked.crawlSeconds),
    },
    {
      measure: `re-sync of the unchanged site (${conditional.notModified} answered 304, ${conditional.ok} downloaded)`,
      value: `${unchanged.seconds.toFixed(2)} s`,
      goal: "no page downloaded",
      met: conditional.ok === 0,
    },
    {
      measure: `re-sync of the unchanged site with sitemap lastmod (${requests} page requests)`,
      value: `${byLastmod.seconds.toFixed(2)} s`,
      goal: "no page request",
      met: requests === 0,
    },
  ];
  for (const figure of figures) console.log(`${figure.measure}: ${figure.value}`);
  record("crawl", {
    title: "Docs site sync (crawler over loopback)",
    method: `The PostgreSQL 15 HTML docs (${pages} pages) served by the tests' static site on loopback (ETag, Last-Modified, 304s), synced into a fresh local index with hashed vectors; 4 requests at once, no delay (the polite default of 250 ms per slot bounds a real site at 16 pages/s). One run each.`,
    figures,
  });
} finally {
  site.stop();
  rmSync(work, { recursive: true, force: true });
}
