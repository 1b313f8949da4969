/**
 * The service keeps DOCS_URL in sync: at start and then every DOCS_SYNC_EVERY, one instance
 * at a time when several share Redis (a lease, and a sync only when the shared record says one
 * is due). A sync writes the index once, at its end, and the running retriever swaps the new
 * index in by itself (the local file's rename, Chroma's version); a failed sync writes nothing,
 * so the previous index keeps serving. The last sync's record is what /readyz and the owner's
 * console show.
 */
import { Effect, Layer, ManagedRuntime } from "effect";
import type { AppConfig } from "../../core/config.ts";
import { type DocsSyncRecord, DocsSyncStore, syncDue } from "../../core/ports/docs-sync.ts";
import type { Logger } from "../observability/log.ts";
import { lazily } from "./adapter-layers.ts";
import { type SiteSyncOutcome, syncSite } from "./site-sync.ts";

/** What the edge reads of the sync (the ops route and the console). */
export interface DocsSyncWatch {
  /** The last sync's record (shared across instances on Redis); undefined before the first. */
  readonly last: () => Promise<DocsSyncRecord | undefined>;
  /** Resolves once a sync (or a decision not to sync) has finished, for tests and benches. */
  readonly settled: () => Promise<void>;
  readonly stop: () => Promise<void>;
}

/** A sync longer than this is taken for dead and its lease given to the next instance. */
const LEASE_MS = 60 * 60_000;

const storeLayer = (config: AppConfig) =>
  config.redisUrl === undefined
    ? Layer.unwrap(
        Effect.map(
          lazily(() => import("../../adapters/store-memory/index.ts")),
          ({ MemoryDocsSync }) => MemoryDocsSync.layer,
        ),
      )
    : Layer.unwrap(
        Effect.map(
          lazily(() => import("../../adapters/store-redis/index.ts")),
          ({ RedisDocsSync }) => RedisDocsSync.layer({ url: config.redisUrl! }).pipe(Layer.orDie),
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

/** Starts syncing DOCS_URL in the background; undefined when none is configured. */
export const startDocsSync = (config: AppConfig, logger: Logger): DocsSyncWatch | undefined => {
  const url = config.docsSite.url;
  if (url === undefined) return undefined;
  const runtime = ManagedRuntime.make(storeLayer(config));
  const store = <A, E>(use: (store: DocsSyncStore["Service"]) => Effect.Effect<A, E>) =>
    runtime.runPromise(Effect.flatMap(DocsSyncStore, use));
  const holder = crypto.randomUUID();
  const everyMs = config.docsSite.syncEveryMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const syncOnce = async () => {
    if (!syncDue(await store((s) => s.last), Date.now(), everyMs)) return;
    if (!(await store((s) => s.claim(holder, Date.now(), LEASE_MS)))) return;
    try {
      // Another instance may have finished one between the check and the lease.
      if (!syncDue(await store((s) => s.last), Date.now(), everyMs)) return;
      logger.info("docs sync started", { url });
      const started = Date.now();
      const outcome = await syncSite(config, url);
      const record = recordOf(url, outcome, Date.now(), Date.now() - started);
      await store((s) => s.record(record));
      const { problem, ...figures } = record;
      if (record.ok) logger.info("docs sync finished", figures);
      else logger.error("docs sync failed: the previous index stays in service", { url, problem });
    } finally {
      await store((s) => s.release(holder));
    }
  };

  const tick = () => {
    running = syncOnce()
      .catch((error: unknown) => logger.error("docs sync could not run", { url, cause: String(error) }))
      .finally(() => {
        // Each instance looks again every interval (and at most every minute): syncDue decides.
        if (!stopped) timer = setTimeout(tick, Math.min(everyMs, 60_000));
      });
  };
  tick();
  return {
    last: () => store((s) => s.last),
    settled: () => running,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await runtime.dispose();
    },
  };
};
