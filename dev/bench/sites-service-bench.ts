/**
 * Many sites on the real service: `npm start`'s service (memory store, extractive answers, a
 * local chain) with a SITES_FILE of 50 small sites and 5 large ones (sites-corpus.ts), their
 * indexes built beforehand (as a restart finds them). Measured over HTTP: the service's RSS (after start, its
 * peak while every site is asked once, at the end), the first answer of each cold site (its
 * index loaded by that question: POST /sites/<id>/api/chat), and p95 of warm answers (the sites
 * asked last, whose indexes are held). SITES_MEMORY_MB (default here 64) is set low enough that
 * indexes are dropped and reloaded: memory stays bounded whatever the number of sites.
 *
 *   bun dev/bench/sites-service-bench.ts                                    # 50 + 5 sites, node docs
 *   bun dev/bench/sites-service-bench.ts --small 4 --large 1 --corpus project  # quick
 *
 * Only the full run records its section for BENCHMARKS.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureSiteIndex } from "../../src/docs-sync/site-index.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { siteAppConfig } from "../../src/sites/site-config.ts";
import { siteDefinition } from "../../test/support/sites-app.ts";
import { rssMb, startBenchService } from "./bench-service.ts";
import { type Figure, record } from "./report.ts";
import { corpusFiles, SITE_QUESTIONS, siteFolders } from "./sites-corpus.ts";
import { fmt, summary } from "./stats.ts";

const { values } = parseArgs({
  options: {
    small: { type: "string", default: "50" },
    large: { type: "string", default: "5" },
    corpus: { type: "string", default: "node" },
    budget: { type: "string", default: "64" },
  },
});
const SMALL = Number(values.small);
const LARGE = Number(values.large);
const FULL = SMALL === 50 && LARGE === 5 && values.corpus === "node";
const WARM_QUESTIONS = 300;
/** The sites asked last, whose indexes the warm questions find held. */
const WARM_SITES = 3;

const work = mkdtempSync(join(tmpdir(), "sites-service-bench-"));
try {
  const sites = siteFolders(work, corpusFiles(values.corpus), SMALL, LARGE);
  const sitesFile = join(work, "sites.json");
  writeFileSync(sitesFile, JSON.stringify({ sites: sites.map(({ id, folder }) => ({ id, docs: folder })) }));
  // The sites' indexes are built first (here, as `npm run ingest -- --site <id>` would), so the
  // service is measured as it runs day to day: restarted over indexes that exist.
  const indexPath = join(work, "data", "index.bin");
  const indexStarted = performance.now();
  const logger = makeLogger(() => undefined);
  for (const site of sites) {
    const definition = siteDefinition(site.id, { docs: { kind: "folder", path: site.folder } });
    const config = siteAppConfig(defaultConfig({ vector: { kind: "local", indexPath } }), definition);
    await ensureSiteIndex(config, site.folder, logger);
  }
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  const started = performance.now();
  const { service, stop } = await startBenchService("sites-service-bench", {
    SITES_FILE: sitesFile,
    SITES_MEMORY_MB: values.budget,
    INDEX_PATH: indexPath,
    TRUST_PROXY: "loopback",
  });
  const startSeconds = (performance.now() - started) / 1000;
  try {
    const rssStart = rssMb(service.pid);
    let rssPeak = rssStart;
    let client = 0;
    const ask = async (id: string, question: string) => {
      client += 1;
      const began = performance.now();
      const response = await fetch(`${service.url}/sites/${id}/api/chat`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
        },
        body: JSON.stringify({ message: question }),
      });
      await response.arrayBuffer();
      const ms = performance.now() - began;
      if (response.status !== 200) throw new Error(`site ${id}: HTTP ${response.status}`);
      rssPeak = Math.max(rssPeak, rssMb(service.pid));
      return ms;
    };

    // Cold: every site's first question, in a shuffled order.
    const order = [...sites].sort(() => Math.random() - 0.5);
    const cold = { small: [] as number[], large: [] as number[] };
    for (const [i, site] of order.entries())
      (site.large ? cold.large : cold.small).push(
        await ask(site.id, SITE_QUESTIONS[i % SITE_QUESTIONS.length]!),
      );
    // Warm: the sites asked last.
    const recent = order.slice(-WARM_SITES);
    const warm: number[] = [];
    for (let i = 0; i < WARM_QUESTIONS; i++)
      warm.push(await ask(recent[i % WARM_SITES]!.id, SITE_QUESTIONS[i % SITE_QUESTIONS.length]!));
    const rssEnd = rssMb(service.pid);

    const coldSmall = summary(cold.small);
    const figures: Figure[] = [
      {
        measure: `${sites.length} sites indexed from their folders (once, before the service starts)`,
        value: `${indexSeconds.toFixed(1)} s`,
      },
      { measure: "service started over those indexes", value: `${startSeconds.toFixed(1)} s` },
      { measure: "RSS after start (no site index held)", value: `${rssStart.toFixed(0)} MB` },
      {
        measure: `RSS peak, every site asked once (SITES_MEMORY_MB=${values.budget})`,
        value: `${rssPeak.toFixed(0)} MB`,
      },
      { measure: `RSS at the end (after ${WARM_QUESTIONS} warm answers)`, value: `${rssEnd.toFixed(0)} MB` },
      {
        measure: "first answer of a cold small site (index loaded), p50 / p95",
        value: `${fmt(coldSmall.p50)} / ${fmt(coldSmall.p95)}`,
      },
      {
        measure: "first answer of a cold large site, p50 / worst",
        value:
          cold.large.length === 0 ? "-" : `${fmt(summary(cold.large).p50)} / ${fmt(Math.max(...cold.large))}`,
      },
      {
        measure: `warm answers (${WARM_QUESTIONS}, the ${WARM_SITES} sites asked last), p50 / p95`,
        value: `${fmt(summary(warm).p50)} / ${fmt(summary(warm).p95)}`,
      },
    ];
    for (const figure of figures) console.log(`${figure.measure}: ${figure.value}`);
    if (FULL)
      record("sites-service", {
        title: "Many sites on the real service (HTTP)",
        method: `The real service (memory store, extractive answers, local chain) with a SITES_FILE of ${SMALL} small sites (about 360 KB of the Node.js API docs each) and ${LARGE} large ones (all of them), their indexes built beforehand (the service restarted over them). Over loopback HTTP, one client address per question: every site's first question in a shuffled order (its index loaded then), then ${WARM_QUESTIONS} questions to the ${WARM_SITES} sites asked last. RSS from /proc. SITES_MEMORY_MB=${values.budget}, so indexes are dropped and reloaded. One run.`,
        figures,
      });
  } finally {
    await stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
