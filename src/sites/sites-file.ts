/**
 * SITES_FILE on disk: read as JSON, or YAML when it ends in .yaml/.yml, validated by
 * core/config/config-site.ts, with folder docs resolved against the file's own folder (so the file
 * means the same wherever the service is started from). The watcher re-reads it every 2 s and
 * hands a new valid set to `onChange`; a file that became invalid, or vanished, is refused with
 * one WARN naming every problem and the previous set keeps serving, so an edit in progress never
 * takes a site down. The owner's token read from the environment is hashed here (node:crypto),
 * so core stays free of crypto.
 */

import { readFileSync, statSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import * as Result from "effect/Result";
import { parse as parseYaml } from "yaml";
import { type AppConfig, ConfigError, type Env, parseConfig } from "../../core/config/config.ts";
import type { SiteDefaults, SitesSet } from "../../core/config/config-site.ts";
import { parseSites, sitesText } from "../../core/config/config-sites-file.ts";
import { sha256Hex } from "../hono-kit/same-secret.ts";
import { LOOPBACK_NAMES } from "../http/edge/host-guard.ts";
import type { Logger } from "../observability/log.ts";

/** How often the watcher reads the file again. */
export const SITES_FILE_POLL_MS = 2_000;
/** A larger file is refused unread: a sites file of 1,000 sites is about 500 KB. */
export const MAX_SITES_FILE_BYTES = 4 * 1024 * 1024;

/** What a site takes from the service's own configuration when the file leaves it out. */
export const siteDefaults = (
  config: Pick<AppConfig, "freeQueries" | "mcpToolPrices" | "unitsPerQuery"> &
    Partial<Pick<AppConfig, "surface">>,
): SiteDefaults => ({
  freeQueries: config.freeQueries,
  unitsPerQuery: config.unitsPerQuery,
  mcpToolPrices: config.mcpToolPrices,
  reservedHosts: [
    ...LOOPBACK_NAMES,
    ...(config.surface?.allowedHosts ?? []).map((host) => host.toLowerCase()),
    ...(config.surface?.publicOrigin === undefined ? [] : [new URL(config.surface.publicOrigin).hostname]),
  ],
  hashToken: sha256Hex,
});

const refused = (problem: string) => Result.fail(new ConfigError({ problems: [`SITES_FILE: ${problem}`] }));

/** The file's text, or why it cannot be read (it is gone, too large, a folder...). */
const readText = (path: string): Result.Result<string, ConfigError> => {
  try {
    const size = statSync(path).size;
    if (size > MAX_SITES_FILE_BYTES)
      return refused(`${path} is larger than ${MAX_SITES_FILE_BYTES} bytes (${size})`);
    return Result.succeed(readFileSync(path, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return refused(`cannot read ${path} (${code})`);
  }
};

const isYaml = (path: string) => [".yaml", ".yml"].includes(extname(path).toLowerCase());

/** The file's text as data: JSON, or YAML by its extension. */
const decode = (path: string, text: string): Result.Result<unknown, ConfigError> => {
  try {
    return Result.succeed(isYaml(path) ? parseYaml(text) : JSON.parse(text));
  } catch (error) {
    // YAML's message goes on with the offending lines; its first line names the place.
    const why = (error as Error).message.split("\n")[0]?.replace(/:$/, "");
    return refused(`not valid ${isYaml(path) ? "YAML" : "JSON"}: ${why}`);
  }
};

/** The sites in `text`, folder docs made absolute against the file's folder. */
const sitesOf = (path: string, text: string, env: Env, defaults: SiteDefaults) => {
  const folder = dirname(resolve(path));
  return Result.map(
    Result.flatMap(decode(path, text), (raw) => parseSites(raw, env, defaults)),
    (set): SitesSet => ({
      sites: set.sites.map((site) =>
        site.docs.kind === "folder"
          ? { ...site, docs: { ...site.docs, path: resolve(folder, site.docs.path) } }
          : site,
      ),
    }),
  );
};

/** The defaults of the service configured by `env`; its own problems when it has some. */
const defaultsOf = (env: Env): Result.Result<SiteDefaults, ConfigError> =>
  Result.map(parseConfig(env), siteDefaults);

/** Reads and validates the sites file at `path` (defaults: those of the service configured by `env`). */
export const loadSitesFile = (
  path: string,
  env: Env,
  defaults?: SiteDefaults,
): Result.Result<SitesSet, ConfigError> =>
  Result.flatMap(defaults === undefined ? defaultsOf(env) : Result.succeed(defaults), (known) =>
    Result.flatMap(readText(path), (text) => sitesOf(path, text, env, known)),
  );

export interface SitesFileWatchOptions {
  /** Called with each new valid set (never with an unchanged one). */
  readonly onChange: (set: SitesSet) => void;
  readonly logger: Logger;
  /** Default SITES_FILE_POLL_MS. */
  readonly intervalMs?: number;
  /** The set already serving (from loadSitesFile): an identical file is then no change. */
  readonly current?: SitesSet;
  /** Default: those of the service configured by `env`. */
  readonly defaults?: SiteDefaults;
}

export interface SitesFileWatch {
  readonly stop: () => void;
}

/** Sets compared by content (the ids, hosts, prices... a file rewritten the same is no change). */
const sameSites = (a: SitesSet | undefined, b: SitesSet) => a !== undefined && sitesText(a) === sitesText(b);

/** Re-reads the file every `intervalMs` (at once first) until stopped; see the header. */
export const watchSitesFile = (path: string, env: Env, options: SitesFileWatchOptions): SitesFileWatch => {
  const { onChange, logger } = options;
  let current = options.current;
  // The text last judged: an unchanged file is neither parsed nor warned about again.
  let lastText: string | undefined;
  let missing = false;
  const check = () => {
    const text = readText(path);
    if (Result.isFailure(text)) {
      if (!missing)
        logger.warn("sites file unreadable; the previous sites are kept", {
          problems: text.failure.problems,
        });
      missing = true;
      lastText = undefined;
      return;
    }
    missing = false;
    if (text.success === lastText) return;
    lastText = text.success;
    const set = Result.flatMap(
      options.defaults === undefined ? defaultsOf(env) : Result.succeed(options.defaults),
      (defaults) => sitesOf(path, text.success, env, defaults),
    );
    if (Result.isFailure(set)) {
      logger.warn("sites file refused; the previous sites are kept", { problems: set.failure.problems });
      return;
    }
    if (sameSites(current, set.success)) return;
    current = set.success;
    logger.info("sites file loaded", { sites: set.success.sites.map((site) => site.id) });
    try {
      onChange(set.success);
    } catch (error) {
      // Thrown from a timer it would end the process; the next change is tried again.
      logger.error("sites file change not applied", { error: String(error) });
    }
  };
  check();
  const timer = setInterval(check, options.intervalMs ?? SITES_FILE_POLL_MS);
  // The watcher alone must not keep the process alive.
  timer.unref();
  return { stop: () => clearInterval(timer) };
};
