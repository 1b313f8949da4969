/**
 * The hosted sites of the stranger floods (strangers-bench.ts): BENCH_STRANGERS_SITES (default 8)
 * sites of about 300 chunks each from this repository's README and docs (sites-corpus.ts), each
 * with 3 free questions (so one address could take 24 free answers from them were there no
 * ceiling across sites), indexed before the service starts, as a restart finds them. Their
 * indexes together hold more than SITES_MEMORY_MB (2 here), so sites asked in turn are loaded
 * again and again: the cold loads the per-minute budget admits.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureSiteIndex } from "../../src/docs-sync/site-index.ts";
import { makeLogger } from "../../src/observability/log.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { siteAppConfig } from "../../src/sites/site-config.ts";
import { siteDefinition } from "../../test/support/sites-app.ts";
import { corpusFiles, siteFolders } from "./sites-corpus.ts";

export const SITES = Number(process.env.BENCH_STRANGERS_SITES ?? 8);
/** Each hosted site's free questions a day (the sites file's `freeQuestions`). */
export const FREE_PER_SITE = 3;
/** Small enough that the sites' indexes do not all fit: asked in turn, they are loaded again. */
export const SITES_MEMORY_MB = 2;

/** Writes the sites' folders, indexes and sites file under `work`; the service's environment for them. */
export const prepareSites = async (work: string) => {
  const sites = siteFolders(work, corpusFiles("project"), SITES, 0);
  const indexPath = join(work, "data", "index.bin");
  const logger = makeLogger(() => undefined);
  for (const site of sites) {
    const definition = siteDefinition(site.id, { docs: { kind: "folder", path: site.folder } });
    const config = siteAppConfig(defaultConfig({ vector: { kind: "local", indexPath } }), definition);
    await ensureSiteIndex(config, site.folder, logger);
  }
  const sitesFile = join(work, "sites.json");
  writeFileSync(
    sitesFile,
    JSON.stringify({
      sites: sites.map(({ id, folder }) => ({ id, docs: folder, freeQuestions: FREE_PER_SITE })),
    }),
  );
  return {
    ids: sites.map((site) => site.id),
    env: { SITES_FILE: sitesFile, INDEX_PATH: indexPath, SITES_MEMORY_MB: String(SITES_MEMORY_MB) },
  };
};
