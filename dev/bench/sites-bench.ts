/**
 * Many sites on one instance, at the retriever level (src/sites/site-indexes.ts): 50 sites of a
 * few hundred chunks each and 5 large ones, each with its own local index built from a folder
 * at start (ensureSiteIndex), every index loaded on its site's first question and the least
 * recently used dropped past SITES_MEMORY_MB. Measured: the process's RSS (before any index
 * is loaded, its peak, at the end), the first retrieval of a cold site (its index loaded
 * then), and p95 of warm retrievals (sites whose index is held) picked at random.
 *
 * Corpus: the Node.js API docs (node-docs.ts; 60-odd Markdown files): a small site takes
 * consecutive files (a different start per site) up to about 360 KB of text (300 chunks of
 * 300 tokens), a large site the whole set. `--corpus project` uses this repository's README
 * and docs/ instead (no download), for a quick run:
 *
 *   bun dev/bench/sites-bench.ts                                   # 50 + 5 sites, node docs
 *   SITES_MEMORY_MB=1 bun dev/bench/sites-bench.ts --small 5 --large 1 --corpus project
 *
 * Only the full run records its section for BENCHMARKS.md.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { parseConfig } from "../../core/config/config.ts";
import { ensureSiteIndex } from "../../src/docs-sync/site-index.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { siteRetrieval } from "../../src/runtime/site-retrieval.ts";
import { MIB, makeSiteIndexes } from "../../src/sites/site-indexes.ts";
import { type Figure, record } from "./report.ts";
import { corpusFiles, SITE_QUESTIONS, SMALL_SITE_BYTES, siteFolders } from "./sites-corpus.ts";
import { fmt, summary } from "./stats.ts";

const { values } = parseArgs({
  options: {
    small: { type: "string", default: "50" },
    large: { type: "string", default: "5" },
    corpus: { type: "string", default: "node" },
  },
});
const SMALL = Number(values.small);
const LARGE = Number(values.large);
const FULL = SMALL === 50 && LARGE === 5 && values.corpus === "node";
const WARM_QUESTIONS = 500;

const budgetMb = Result.getOrThrow(parseConfig(process.env)).ceilings["sites-memory"];
const logger = makeLogger(() => undefined);
const rssMb = () => process.memoryUsage().rss / MIB;
const work = mkdtempSync(join(tmpdir(), "sites-bench-"));
try {
  const files = corpusFiles(values.corpus);
  const corpusBytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const sites = siteFolders(work, files, SMALL, LARGE);
  const configOf = (id: string) =>
    defaultConfig({ vector: { kind: "local", indexPath: join(work, "data", "sites", id, "index.bin") } });

  const indexStarted = performance.now();
  const chunks: Record<string, number> = {};
  for (const site of sites)
    chunks[site.id] = (await ensureSiteIndex(configOf(site.id), site.folder, logger)) ?? 0;
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  const chunkCounts = (large: boolean) => sites.filter((s) => s.large === large).map((s) => chunks[s.id]!);
  const smallChunks = summary(chunkCounts(false));
  const largeChunks = chunkCounts(true);
  console.log(
    `indexed ${sites.length} sites in ${indexSeconds.toFixed(1)} s (small: p50 ${smallChunks.p50} chunks; large: ${largeChunks.join(", ")} chunks)`,
  );

  Bun.gc(true);
  const rssBefore = rssMb();
  let rssPeak = rssBefore;
  let drops = 0;
  const indexes = makeSiteIndexes(budgetMb * MIB, { onDrop: () => drops++ });
  const retrieverOf = (id: string) => indexes.retriever(id, siteRetrieval(configOf(id)));
  const timed = async (id: string, question: string) => {
    const started = performance.now();
    await Effect.runPromise(retrieverOf(id).retrieve(question, 6));
    const ms = performance.now() - started;
    rssPeak = Math.max(rssPeak, rssMb());
    return ms;
  };

  // Cold: every site's first question, in a shuffled order.
  const order = [...sites].sort(() => Math.random() - 0.5);
  const cold = { small: [] as number[], large: [] as number[] };
  for (const [i, site] of order.entries())
    (site.large ? cold.large : cold.small).push(
      await timed(site.id, SITE_QUESTIONS[i % SITE_QUESTIONS.length]!),
    );

  // Warm: questions to sites whose index is held, picked at random.
  const warm: number[] = [];
  for (let i = 0; i < WARM_QUESTIONS; i++) {
    const held = indexes.held();
    const pick = held[Math.floor(Math.random() * held.length)]!;
    warm.push(await timed(pick.site, SITE_QUESTIONS[i % SITE_QUESTIONS.length]!));
  }
  Bun.gc(true);
  const rssAfter = rssMb();
  const heldMb = indexes.heldBytes() / MIB;
  const heldSites = indexes.held().length;
  await indexes.close();

  const coldSmall = summary(cold.small);
  const figures: Figure[] = [
    {
      measure: `sites indexed at start (${SMALL} small of p50 ${smallChunks.p50} chunks, ${LARGE} large of ${largeChunks[0] ?? 0} chunks)`,
      value: `${indexSeconds.toFixed(1)} s`,
    },
    { measure: "RSS with no site index loaded", value: `${rssBefore.toFixed(0)} MB` },
    {
      measure: `RSS peak, every site asked (budget SITES_MEMORY_MB=${budgetMb})`,
      value: `${rssPeak.toFixed(0)} MB`,
    },
    {
      measure: `RSS at the end (${heldSites} indexes held, ${heldMb.toFixed(1)} MB by their measure; ${drops} drops)`,
      value: `${rssAfter.toFixed(0)} MB`,
    },
    {
      measure: "first retrieval of a cold small site, p50 / p95",
      value: `${fmt(coldSmall.p50)} / ${fmt(coldSmall.p95)}`,
    },
    {
      measure: "first retrieval of a cold large site, worst",
      value: cold.large.length === 0 ? "-" : fmt(Math.max(...cold.large)),
    },
    { measure: `warm retrievals (${WARM_QUESTIONS}, random held sites), p95`, value: fmt(summary(warm).p95) },
  ];
  for (const figure of figures) console.log(`${figure.measure}: ${figure.value}`);
  if (FULL)
    record("sites", {
      title: "Many sites on one instance (retriever level)",
      method: `${SMALL} sites of a few hundred chunks and ${LARGE} large ones (the Node.js API docs, ${(corpusBytes / MIB).toFixed(1)} MB of Markdown: a small site takes about ${SMALL_SITE_BYTES / 1000} KB of consecutive files, a large one all of them), each with its own local index (hashed vectors) built at start; each index loads on its site's first question and the least recently used is dropped past SITES_MEMORY_MB. Times are of Retriever.retrieve (k = 6), answers not generated. One run.`,
      figures,
    });
} finally {
  rmSync(work, { recursive: true, force: true });
}
