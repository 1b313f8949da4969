/**
 * The sites a service hosts beside its default one: each opened from its definition (its store
 * once, its runtime and routes), served through the site directory the edge reads, and followed
 * when the sites file changes: a new site is opened, a changed one gets a new runtime over the
 * same store, a removed one is closed. A folder site's index follows its folder while it is open
 * (src/docs-sync/folder-docs.ts). The runtime a change replaces keeps serving the requests
 * it already has for a grace period longer than a hold (120 s), then is closed; a removed site's
 * runtime is closed only once its reconciler found nothing pending, so the settlements it left
 * pending are followed to their end (credited or closed) though nothing serves it. On the memory
 * store a removed site's store is kept, not closed: its credits live nowhere else, so a site
 * taken out of the file and put back (an edit in two steps, a mistake undone) finds them again,
 * as it would in Redis.
 */
import * as Context from "effect/Context";
import * as Layer from "effect/Layer";
import type { AppConfig } from "../../core/config/config.ts";
import type { SiteDefinition, SitesSet } from "../../core/config/config-site.ts";
import { sitesText } from "../../core/config/config-sites-file.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import type { AppDeps } from "../app.ts";
import type { ServiceDocsSync } from "../docs-sync/docs-sync-loop.ts";
import { type FolderSite, startFolderDocs } from "../docs-sync/folder-docs.ts";
import { siteRetrieval } from "../runtime/site-retrieval.ts";
import { coldLoadBudget } from "./cold-loads.ts";
import { type ServiceParts, type SiteRuntime, siteRuntime } from "./hosted-site.ts";
import type { SiteAttribution } from "./site-attribution.ts";
import { siteAppConfig, siteChain } from "./site-config.ts";
import { type DirectoryEntry, siteDirectory } from "./site-directory.ts";
import type { SiteFreeQuestions } from "./site-free-questions.ts";
import { MIB, makeSiteIndexes } from "./site-indexes.ts";
import { siteLogger } from "./site-logger.ts";
import { siteRoutes } from "./site-routes.ts";
import { openSiteStore, type SharedServices, type SiteStore, siteKeyPrefix } from "./site-store.ts";
import { siteWallets } from "./site-wallet.ts";

/** The sites file's sites in the service's docs sync. */
const SITES_GROUP = "sites-file";

/** How long a replaced or removed site's runtime still serves what it had (above the 120 s hold lease). */
export const RETIRE_AFTER_MS = 130_000;

export interface HostedSitesOptions extends ServiceParts {
  readonly shared: Context.Context<SharedServices>;
  /** The service's one docs sync loop, which the sites file's URL sites join (src/docs-sync/docs-sync-loop.ts). */
  readonly docsSync: ServiceDocsSync;
  /** The service's attribution of transfers, the root site's part already in (site-attribution.ts). */
  readonly transfers: SiteAttribution;
  /** The largest free questions of the service's sites, which every site reads (site-free-questions.ts). */
  readonly freeQuestions: SiteFreeQuestions;
  /** The web parts of the default site (widget bundles, the demo faucet); each site relays to its own wallet. */
  readonly web: NonNullable<AppDeps["web"]>;
  readonly now?: () => number;
  /** Default RETIRE_AFTER_MS (tests shorten it to see a retired runtime close). */
  readonly retireAfterMs?: number;
  /** How often each site's reconciler looks (default RECONCILE_EVERY_MS; tests shorten it). */
  readonly reconcileEveryMs?: number;
}

interface OpenSite {
  readonly definition: SiteDefinition;
  readonly fingerprint: string;
  readonly store: SiteStore;
  readonly served: SiteRuntime;
  readonly entry: DirectoryEntry;
  /** A folder site's docs, followed while it is open. */
  readonly folder: FolderSite | undefined;
  readonly stop: () => Promise<void>;
  /** Resolves once nothing is pending for its reconciler (which stops then). */
  readonly drain: () => Promise<void>;
}

/** `stop` run once, however often it is called (a draining site's stop, and the service's). */
const once = (stop: () => Promise<void>) => {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= stop();
    return stopping;
  };
};

export const hostedSites = (options: HostedSitesOptions) => {
  const { logger, shared } = options;
  const directory = siteDirectory();
  const open = new Map<string, OpenSite>();
  // Runtimes a change replaced, closed after the grace period (or at once when the service stops).
  const retiring = new Map<ReturnType<typeof setTimeout>, () => Promise<void>>();
  const onMemory = options.base.redis === undefined;
  // The memory stores of removed sites, by id, for the process's life (see the header).
  const parked = new Map<string, SiteStore>();
  const wallets = siteWallets(options.base.redis);
  // Whose a transfer is: listed for refund once in the service (site-attribution.ts).
  const attribution = options.transfers;
  let applying: Promise<void> = Promise.resolve();
  // Every site's index loads on its first question; past SITES_MEMORY_MB the least recently used idle one is dropped.
  const indexes = makeSiteIndexes(options.base.ceilings["sites-memory"] * MIB, {
    admitLoad: coldLoadBudget(
      {
        perMinute: options.base.ceilings["cold-index-loads"],
        perClientPerMinute: options.base.ceilings["cold-index-loads-per-client"],
      },
      (ceiling) => options.metrics.count("ceiling_refusals_total", { ceiling }),
      options.now,
    ),
    ...(options.now === undefined ? {} : { now: options.now }),
    onLoad: () => options.metrics.count("site_index_loads_total"),
    onDrop: (site, size, heldBytes) =>
      logger.info("site index dropped (memory budget)", { site, bytes: size.bytes, heldBytes }),
  });
  const retrievalOf = (definition: SiteDefinition, config: AppConfig) =>
    Layer.succeed(Retriever)(indexes.retriever(definition.id, siteRetrieval(config, logger)));
  // The URL sites' docs, kept in sync by the service's one loop, one site after another (each
  // under its own lease), after the default site's.
  const { docsSync } = options;
  docsSync.follow(SITES_GROUP, () =>
    [...open.values()]
      .filter((site) => site.served.config.docsSite.url !== undefined)
      .map((site) => ({
        site: site.definition.id,
        config: site.served.config,
        keyPrefix: siteKeyPrefix(site.definition.id),
      })),
  );
  // The folder sites' indexes, following their folders (indexed again when a page changes).
  const folderDocs = startFolderDocs(
    () =>
      [...open.values()].flatMap(({ definition, folder }) =>
        folder === undefined ? [] : [{ id: definition.id, site: folder }],
      ),
    { logger },
  );

  /**
   * Closes a runtime after the grace period and, for a removed site, once `drain` resolved (at
   * once when the service stops: kept among the retiring until then).
   */
  const retire = (site: string, close: () => Promise<void>, drain?: () => Promise<void>) => {
    const stop = once(close);
    const timer = setTimeout(() => {
      void (drain?.() ?? Promise.resolve())
        .then(() => {
          retiring.delete(timer);
          return stop();
        })
        .then(
          () => logger.info("retired site runtime closed", { site }),
          (error: unknown) => logger.warn("a retired site did not close", { site, cause: String(error) }),
        );
    }, options.retireAfterMs ?? RETIRE_AFTER_MS);
    timer.unref?.();
    retiring.set(timer, stop);
  };

  const openSite = async (definition: SiteDefinition, before: OpenSite | undefined): Promise<OpenSite> => {
    // Every line the site's own parts log names the site.
    const siteLog = siteLogger(logger, definition.id);
    const config = siteAppConfig(options.base, definition);
    const chain = siteChain(options.chain, definition);
    // An id stays with its wallet, unless its open site is moved to another (site-wallet.ts).
    const refused = await wallets.bind(definition, before !== undefined);
    if (refused !== undefined) throw refused;
    const previous = before?.store ?? parked.get(definition.id);
    const keepStore = previous !== undefined && previous.freeQueries === config.freeQueries;
    if (previous !== undefined && !keepStore && onMemory)
      logger.warn("the free questions of a site changed: on the memory store they apply after a restart", {
        site: definition.id,
      });
    const reused = previous !== undefined && (keepStore || onMemory);
    const store = reused
      ? previous
      : await openSiteStore(definition.id, config, shared, siteLog, options.events);
    const folder =
      definition.docs.kind === "folder"
        ? { config, folder: definition.docs.path, baseUrl: definition.docs.baseUrl, logger: siteLog }
        : undefined;
    try {
      // A folder site's index is brought up to date with its folder (a URL site's sync fills its own).
      if (folder !== undefined) await folderDocs.open(definition.id, folder);
    } catch (error) {
      // A store opened for nothing is closed (on Redis it holds a user of the shared connection).
      if (!reused) await store.dispose();
      throw error;
    }
    const served = siteRuntime(
      definition,
      config,
      chain,
      store,
      {
        ...options,
        retrievalOf,
        sitesFree: options.freeQuestions,
        attribution: attribution.service,
      },
      siteLog,
    );
    attribution.open(definition.id, {
      wallet: chain.wallet,
      mac: Context.get(store.context, RequestSeal).mac,
      unattributed: Context.get(store.context, UnattributedPayments),
    });
    const routes = siteRoutes({
      definition,
      config,
      chain,
      store,
      served,
      parts: options,
      siteLog,
      lastSync: config.docsSite.url === undefined ? undefined : () => docsSync.last(definition.id),
      servesHost: directory.routing.servesHost,
    });
    return {
      definition,
      fingerprint: sitesText(definition),
      store,
      served,
      entry: routes.entry,
      folder,
      stop: async () => {
        await routes.stop();
        await served.runtime.dispose();
      },
      drain: routes.drain,
    };
  };

  /** Opens, replaces and closes sites so the set is `set`; a site that fails to open keeps what it had. */
  const apply = async (set: SitesSet) => {
    const wanted = new Map(set.sites.map((site) => [site.id, site]));
    for (const [id, site] of open) {
      if (wanted.has(id)) continue;
      open.delete(id);
      indexes.forget(id);
      attribution.close(id);
      logger.info("site removed", { site: id });
      if (onMemory) parked.set(id, site.store);
      retire(
        id,
        async () => {
          await site.stop();
          if (!onMemory) await site.store.dispose();
        },
        site.drain,
      );
    }
    // Taken again before any site opens: every site, the default one too, reads it.
    options.freeQuestions.applied(set.sites);
    for (const definition of set.sites) {
      const before = open.get(definition.id);
      const fingerprint = sitesText(definition);
      if (before?.fingerprint === fingerprint) continue;
      try {
        const next = await openSite(definition, before);
        parked.delete(definition.id);
        // Its docs or index may have changed: the next question loads it afresh.
        if (before !== undefined) indexes.forget(definition.id);
        open.set(definition.id, next);
        if (before !== undefined) {
          retire(definition.id, async () => {
            await before.stop();
            if (before.store !== next.store) await before.store.dispose();
          });
        }
        logger.info(before === undefined ? "site opened" : "site reloaded", { site: definition.id });
      } catch (error) {
        logger.error("a site could not be opened", { site: definition.id, cause: String(error) });
      }
    }
    directory.replace([...open.values()].map((site) => site.entry));
    // A URL site that opened is synced now, not at the loop's next look.
    docsSync.nudge();
  };

  return {
    routing: directory.routing,
    /** Applies a new set of sites; calls run one after another. */
    apply: (set: SitesSet) => {
      applying = applying.then(() => apply(set));
      return applying;
    },
    /** The open sites, for the operator's tools and the console. */
    list: (): ReadonlyArray<{ readonly definition: SiteDefinition; readonly served: SiteRuntime }> =>
      [...open.values()].map(({ definition, served }) => ({ definition, served })),
    /** What the sites' indexes hold now (for the operator's tools). */
    indexes: () => indexes.held(),
    /** The last docs sync of a URL site. */
    lastSync: (id: string) => docsSync.last(id),
    stop: async () => {
      await applying;
      docsSync.unfollow(SITES_GROUP);
      await folderDocs.stop();
      for (const [timer, stop] of retiring) {
        clearTimeout(timer);
        await stop().catch(() => undefined);
      }
      retiring.clear();
      for (const site of open.values()) {
        await site.stop();
        await site.store.dispose();
      }
      open.clear();
      for (const store of parked.values()) await store.dispose();
      parked.clear();
      await indexes.close();
    },
  };
};

export type HostedSites = ReturnType<typeof hostedSites>;
