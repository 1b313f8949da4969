/**
 * The service keeps DOCS_URL in sync: at start and then every DOCS_SYNC_EVERY, one instance
 * at a time when several share Redis (a lease, and a sync only when the shared record says one
 * is due). With several sites, each URL site has its own lease and record (its store's key
 * prefix), and the sites are synced one after another, never at once: the crawler's load on
 * this instance (requests in flight, parsing, embedding) stays that of one sync. A sync writes the index once, at its end, and the running retriever swaps the new
 * index in by itself (the local file's rename, Chroma's version); a failed sync writes nothing,
 * so the previous index keeps serving. The last sync's record is what /readyz and the owner's
 * console show.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import type { AppConfig } from "../../core/config/config.ts";
import { type DocsSyncRecord, DocsSyncStore, syncDue } from "../../core/ports/docs-sync.ts";
import type { Logger } from "../observability/log.ts";
import { lazily } from "../runtime/adapter-layers.ts";
import { type SiteSyncOutcome, syncSite } from "./site-sync.ts";

/** What the edge reads of the sync (the ops route and the console). */
export interface DocsSyncWatch {
  /** The last sync's record (shared across instances on Redis); undefined before the first. */
  readonly last: () => Promise<DocsSyncRecord | undefined>;
  /** Resolves once a sync (or a decision not to sync) has finished, for tests and benches. */
  readonly settled: () => Promise<void>;
  readonly stop: () => Promise<void>;
}

/** The single-site setup's name in logs. */
const DEFAULT_SITE = "default";

/** A sync longer than this is taken for dead and its lease given to the next instance. */
const LEASE_MS = 60 * 60_000;

/** The site's DocsSyncStore: this process's memory, or Redis under the site's key prefix. */
const storeLayer = (config: AppConfig, keyPrefix: string | undefined) =>
  config.redis === undefined
    ? Layer.unwrap(
        Effect.map(
          lazily(() => import("../../adapters/store-memory/index.ts")),
          ({ MemoryDocsSync }) => MemoryDocsSync.layer,
        ),
      )
    : Layer.unwrap(
        Effect.map(
          lazily(() => import("../../adapters/store-redis/index.ts")),
          ({ RedisDocsSync }) =>
            RedisDocsSync.layer({
              url: config.redis!,
              // A hosted site's record takes the process's shared connection.
              ...(keyPrefix === undefined ? {} : { keyPrefix, shareConnection: true }),
            }).pipe(Layer.orDie),
        ),
      );

/** The record of one sync's outcome. */
export const recordOf = (
  url: string,
  outcome: SiteSyncOutcome,
  at: number,
  durationMs: number,
): DocsSyncRecord => {
  if (outcome._tag === "Success") {
    const report = outcome.success;
    return {
      at,
      ok: true,
      url,
      durationMs,
      via: report.via,
      pages: report.pages,
      changed: report.changed,
      removed: report.removed,
      errors: report.errors.length,
    };
  }
  const error = outcome.failure;
  const problem =
    error._tag === "SiteSyncFailed" ? `${error.failure}: ${error.url}: ${error.detail}` : error.message;
  return { at, ok: false, url, durationMs, via: "", pages: 0, changed: 0, removed: 0, errors: 0, problem };
};

/** A site whose docs URL (its `config.docsSite.url`) is kept in sync. */
export interface SyncedSite {
  /** Names the site in logs and in `last`. */
  readonly site: string;
  /** The site's configuration: its docs URL, sync interval, crawler bounds and index. */
  readonly config: AppConfig;
  /** The site's store key prefix on Redis, where its lease and record live; undefined: the default site's. */
  readonly keyPrefix?: string | undefined;
}

/** What the edge reads of the sites' syncs. */
export interface SitesDocsSync {
  /** The last sync's record of `site`; undefined before its first (or for an unknown site). */
  readonly last: (site: string) => Promise<DocsSyncRecord | undefined>;
  /** Resolves once the current round over every site has finished, for tests and benches. */
  readonly settled: () => Promise<void>;
  /** Looks again now (or right after the round in progress): a site has joined. */
  readonly nudge: () => void;
  readonly stop: () => Promise<void>;
}

type StoreRuntime = ManagedRuntime.ManagedRuntime<DocsSyncStore, never>;

/**
 * Starts syncing every site `sites()` names (read again each round, so a changed sites file
 * takes effect), one after another; each instance looks again every interval, at most every minute.
 */
export const startSitesDocsSync = (sites: () => ReadonlyArray<SyncedSite>, logger: Logger): SitesDocsSync => {
  // One store per site, kept while the site is (the memory store's lease and record live in it).
  const stores = new Map<string, { readonly key: string; readonly runtime: StoreRuntime }>();
  const storeOf = (site: SyncedSite): StoreRuntime => {
    const key = `${site.keyPrefix ?? ""}\n${site.config.redis === undefined ? "" : "redis"}`;
    const held = stores.get(site.site);
    if (held !== undefined && held.key === key) return held.runtime;
    if (held !== undefined) void held.runtime.dispose();
    const runtime = ManagedRuntime.make(storeLayer(site.config, site.keyPrefix));
    stores.set(site.site, { key, runtime });
    return runtime;
  };
  const store = <A, E>(
    runtime: StoreRuntime,
    use: (store: DocsSyncStore["Service"]) => Effect.Effect<A, E>,
  ) => runtime.runPromise(Effect.flatMap(DocsSyncStore, use));
  const holder = crypto.randomUUID();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const syncOnce = async ({ site, config }: SyncedSite, url: string, runtime: StoreRuntime) => {
    const everyMs = config.docsSite.syncEveryMs;
    if (!syncDue(await store(runtime, (s) => s.last), Date.now(), everyMs)) return;
    if (!(await store(runtime, (s) => s.claim(holder, Date.now(), LEASE_MS)))) return;
    try {
      // Another instance may have finished one between the check and the lease.
      if (!syncDue(await store(runtime, (s) => s.last), Date.now(), everyMs)) return;
      logger.info("docs sync started", { site, url });
      const started = Date.now();
      const outcome = await syncSite(config, url);
      const record = recordOf(url, outcome, Date.now(), Date.now() - started);
      await store(runtime, (s) => s.record(record));
      const { problem, ...figures } = record;
      if (record.ok) logger.info("docs sync finished", { site, ...figures });
      else logger.error("docs sync failed: the previous index stays in service", { site, url, problem });
    } finally {
      await store(runtime, (s) => s.release(holder));
    }
  };

  const round = async () => {
    const current = sites().filter((site) => site.config.docsSite.url !== undefined);
    for (const [name, held] of stores)
      if (!current.some((site) => site.site === name)) {
        stores.delete(name);
        await held.runtime.dispose();
      }
    for (const site of current) {
      if (stopped) return;
      const url = site.config.docsSite.url!;
      await syncOnce(site, url, storeOf(site)).catch((error: unknown) =>
        logger.error("docs sync could not run", { site: site.site, url, cause: String(error) }),
      );
    }
  };

  // A round in progress, and whether another was asked for meanwhile (a site joined).
  let busy = false;
  let again = false;
  const tick = () => {
    busy = true;
    running = round().finally(() => {
      busy = false;
      if (stopped) return;
      if (again) {
        again = false;
        tick();
        return;
      }
      const everyMs = Math.min(60_000, ...sites().map((site) => site.config.docsSite.syncEveryMs));
      // syncDue decides whether each site is synced this time.
      timer = setTimeout(tick, everyMs);
    });
  };
  tick();
  return {
    last: async (name) => {
      const site = sites().find((candidate) => candidate.site === name);
      return site === undefined || stopped ? undefined : store(storeOf(site), (s) => s.last);
    },
    settled: () => running,
    nudge: () => {
      if (stopped) return;
      if (busy) again = true;
      else {
        clearTimeout(timer);
        tick();
      }
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.all(Array.from(stores.values(), (held) => held.runtime.dispose()));
      stores.clear();
    },
  };
};

/**
 * The service's one docs sync: every site's URL docs in one loop, one site after another, the
 * default site's (DOCS_URL) first. Each group of sites (the default one, the sites file's)
 * `follow`s with the list it has now, read again each round; `unfollow` when it closes.
 */
export const serviceDocsSync = (logger: Logger) => {
  const groups = new Map<string, () => ReadonlyArray<SyncedSite>>();
  const sync = startSitesDocsSync(() => [...groups.values()].flatMap((sites) => sites()), logger);
  return {
    ...sync,
    follow: (group: string, sites: () => ReadonlyArray<SyncedSite>) => {
      groups.set(group, sites);
      sync.nudge();
    },
    unfollow: (group: string) => {
      groups.delete(group);
    },
  };
};

export type ServiceDocsSync = ReturnType<typeof serviceDocsSync>;

/** The default site's part of the sync (DOCS_URL, its lease and record under the default keys). */
export const followDefaultSite = (sync: ServiceDocsSync, config: AppConfig): DocsSyncWatch | undefined => {
  if (config.docsSite.url === undefined) return undefined;
  sync.follow(DEFAULT_SITE, () => [{ site: DEFAULT_SITE, config }]);
  return {
    last: () => sync.last(DEFAULT_SITE),
    settled: sync.settled,
    stop: async () => sync.unfollow(DEFAULT_SITE),
  };
};
