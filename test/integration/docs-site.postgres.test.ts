/**
 * The PostgreSQL docs served over loopback by a small static site, ingested by URL: with a
 * sitemap the dev set's recall@5 equals the file ingest's; without one the crawl finds the same
 * pages; a re-sync after three pages changed downloads those three (the rest answer 304) and
 * removes a deleted one; with sitemap lastmod an unchanged site costs no page request at all.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import type { AppConfig } from "../../core/config/config.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { ensurePostgresDocs } from "../../dev/bench/postgres-docs.ts";
import { readQuestions } from "../../dev/eval/questions.ts";
import { syncSite } from "../../src/docs-sync/site-sync.ts";
import { indexLayer, retrievalLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { type StaticSite, startStaticSite } from "../support/static-site.ts";

const DEV_SET = join(import.meta.dir, "../fixtures/eval/postgres-dev.tsv");
const LOOPBACK = { allowPrivate: true, delayMs: 0 } as const;

const work = mkdtempSync(join(tmpdir(), "docs-site-pg-"));
const configAt = (name: string): AppConfig =>
  defaultConfig({ vector: { kind: "local", indexPath: join(work, name, "index.bin") } });

/** recall@5 by file over the dev set, from the index `config` names. */
const recallAt5 = (config: AppConfig) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const retriever = yield* Retriever;
      const questions = readQuestions(DEV_SET);
      let found = 0;
      for (const q of questions) {
        const top = (yield* retriever.retrieve(q.question, 5)).chunks;
        if (top.some((chunk) => chunk.source === q.file)) found++;
      }
      return found / questions.length;
    }).pipe(Effect.provide(withSettings(config, retrievalLayer))),
  );

const sourcesOf = (config: AppConfig) =>
  Effect.runPromise(
    Effect.map(Retriever, (retriever) => retriever.listing).pipe(
      Effect.flatten,
      Effect.map((listing) => new Set(listing.chunks.map((chunk) => chunk.source))),
      Effect.provide(withSettings(config, retrievalLayer)),
    ),
  );

const synced = async (config: AppConfig, url: string) => {
  const outcome = await syncSite(config, url, { crawl: LOOPBACK });
  if (outcome._tag === "Failure") throw new Error(`sync failed: ${JSON.stringify(outcome.failure)}`);
  return outcome.success;
};

let docs: string;
let site: StaticSite;
/** The package's pages (1169 in 15.17, 1167 in 15.18): every HTML file of the folder is one. */
let pages: number;
beforeAll(() => {
  docs = ensurePostgresDocs();
  pages = readdirSync(docs).filter((name) => name.endsWith(".html")).length;
  site = startStaticSite({ root: docs, sitemap: "plain" });
}, 300_000);
afterAll(() => {
  site?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("the PostgreSQL docs by URL", () => {
  test("with a sitemap: every page, and the dev set's recall@5 equals the file ingest's", async () => {
    const files = configAt("files");
    await Effect.runPromise(ingest([docs]).pipe(Effect.provide(withSettings(files, indexLayer()))));
    const report = await synced(configAt("site"), `${site.url}/`);
    expect(report).toMatchObject({ via: "sitemap", pages, fetched: pages, changed: pages, removed: 0 });
    expect(report.errors).toEqual([]);
    const [byFile, byUrl] = [await recallAt5(files), await recallAt5(configAt("site"))];
    expect(byFile).toBeGreaterThan(0.8);
    expect(Math.abs(byUrl - byFile)).toBeLessThanOrEqual(0.01);
  }, 300_000);

  test("without a sitemap: the crawl under the start path finds the same pages", async () => {
    site.setSitemap("none");
    try {
      const report = await synced(configAt("crawl"), `${site.url}/`);
      expect(report.via).toBe("crawl");
      expect(report.pages).toBe(pages);
      expect(await sourcesOf(configAt("crawl"))).toEqual(await sourcesOf(configAt("site")));
    } finally {
      site.setSitemap("plain");
    }
  }, 300_000);

  test("a re-sync downloads only the three changed pages (the rest answer 304) and removes a deleted one", async () => {
    const config = configAt("site");
    const changed = ["/sql-select.html", "/sql-insert.html", "/functions-json.html"];
    for (const path of changed)
      site.change(
        path,
        site.read(path).replace("</body>", "<p>Zanzibarian clause added for this test.</p></body>"),
      );
    site.remove("/sql-lock.html");
    site.resetCounts();
    const report = await synced(config, `${site.url}/`);
    expect(site.counts.ok).toBe(3);
    expect(site.counts.notModified).toBe(pages - 4);
    expect(report).toMatchObject({ pages: pages - 1, fetched: 3, changed: 3, removed: 1 });
    const sources = await sourcesOf(config);
    expect(sources.has("sql-lock.html")).toBe(false);
    expect(sources.has("sql-select.html")).toBe(true);
    const found = await Effect.runPromise(
      Effect.flatMap(Retriever, (retriever) => retriever.retrieve("Zanzibarian clause", 5)).pipe(
        Effect.provide(withSettings(config, retrievalLayer)),
      ),
    );
    const cited = found.chunks.map((chunk) => chunk.url.replace(/#.*$/, ""));
    expect(cited).toEqual(expect.arrayContaining(changed.map((path) => `${site.url}${path}`)));
  }, 300_000);

  test("with sitemap lastmod, an unchanged site costs no page request", async () => {
    site.setSitemap("lastmod");
    try {
      const config = configAt("site");
      await synced(config, `${site.url}/`);
      site.resetCounts();
      const index = join(work, "site", "index.bin");
      const before = readFileSync(index);
      const report = await synced(config, `${site.url}/`);
      expect(site.counts.ok + site.counts.notModified).toBe(0);
      // No new index version either: running services keep their index and their cached answers.
      expect(readFileSync(index).equals(before)).toBe(true);
      expect(report).toMatchObject({ pages: pages - 1, fetched: 0, changed: 0, removed: 0 });
    } finally {
      site.setSitemap("plain");
    }
  }, 300_000);
});
