/**
 * SITES_FILE at start: the file is read and validated (a bad one fails the start, every problem
 * named, like any other setting), its sites are opened beside the default one, and the file is
 * watched: a valid change is applied without a restart, a bad one is refused with its reasons
 * and the sites keep serving as they were.
 */
import * as Result from "effect/Result";
import type { Env } from "../../core/config/config.ts";
import type { SitesSet } from "../../core/config/config-site.ts";
import type { AppRuntime } from "../hono-kit/run-effect.ts";
import { type HostedSitesOptions, hostedSites } from "./hosted-sites.ts";
import { sharedServicesOf } from "./site-store.ts";
import { loadSitesFile, siteDefaults, watchSitesFile } from "./sites-file.ts";

export interface StartSitesOptions extends Omit<HostedSitesOptions, "shared"> {
  readonly path: string;
  /** The set already read and validated from `path` (boot does so before starting anything). */
  readonly initial?: SitesSet | undefined;
  readonly env: Env;
  /** The default site's runtime, whose chain reader and budgets every site shares. */
  readonly runtime: AppRuntime;
}

/** The hosted sites, serving and followed; fails (with every problem) when the file is bad. */
export const startSites = async (options: StartSitesOptions) => {
  const defaults = siteDefaults(options.base);
  const loaded =
    options.initial === undefined
      ? loadSitesFile(options.path, options.env, defaults)
      : Result.succeed(options.initial);
  if (Result.isFailure(loaded)) throw loaded.failure;
  const sites = hostedSites({ ...options, shared: await sharedServicesOf(options.runtime) });
  // What opened before a failure is closed: a start that fails must not leave sites running.
  const watch = await sites
    .apply(loaded.success)
    .then(() =>
      watchSitesFile(options.path, options.env, {
        logger: options.logger,
        current: loaded.success,
        defaults,
        onChange: (set) => void sites.apply(set),
      }),
    )
    .catch(async (error: unknown) => {
      await sites.stop();
      throw error;
    });
  return {
    ...sites,
    stop: async () => {
      watch.stop();
      await sites.stop();
    },
  };
};

export type StartedSites = Awaited<ReturnType<typeof startSites>>;
