/**
 * `--site <id>` of the operator's CLIs: the site of SITES_FILE the command works on, seen as
 * the service sees it (src/sites/site-config.ts: its own index, its docs, its settings). The
 * file is read as the running service reads it (folder docs relative to the file); an unset
 * SITES_FILE, a bad file or an unknown id ends the command with what to do.
 */
import * as Result from "effect/Result";
import type { AppConfig } from "../../core/config/config.ts";
import type { SiteDefinition, SitesSet } from "../../core/config/config-site.ts";
import { siteAppConfig } from "../sites/site-config.ts";
import { loadSitesFile, siteDefaults } from "../sites/sites-file.ts";

type Fail = (message: string, code: 1 | 2) => never;

/** The sites of SITES_FILE, or the command ends (exit 2) saying why. */
export const sitesOf = (config: AppConfig, fail: Fail): SitesSet => {
  if (config.sitesFile === undefined)
    return fail(
      "SITES_FILE is not set: point it at the sites file the service reads (SITES_FILE=sites.json)",
      2,
    );
  const loaded = loadSitesFile(config.sitesFile, process.env, siteDefaults(config));
  return Result.isSuccess(loaded) ? loaded.success : fail(loaded.failure.message, 2);
};

/** Site `id` of SITES_FILE and the service's configuration as that site uses it. */
export const siteOf = (
  config: AppConfig,
  id: string,
  fail: Fail,
): { readonly site: SiteDefinition; readonly config: AppConfig } => {
  const { sites } = sitesOf(config, fail);
  const site = sites.find((candidate) => candidate.id === id);
  if (site === undefined) {
    const known = sites.length === 0 ? "it lists no sites" : `it lists ${sites.map((s) => s.id).join(", ")}`;
    return fail(`no site "${id}" in SITES_FILE ${config.sitesFile} (${known}); add it there first`, 2);
  }
  return { site, config: siteAppConfig(config, site) };
};
