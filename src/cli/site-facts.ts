/**
 * What `npm run sites` reads of each site outside the running service: its index on disk (the
 * local file's header, or the Chroma collection), and from a shared store (Redis, under the
 * site's key prefix) its last docs sync and today's insights. A memory store lives inside the
 * service's process, so without REDIS_URL those two are unknown here: said so, never guessed.
 */
import { statSync } from "node:fs";
import * as Effect from "effect/Effect";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { readIndexFile } from "../../adapters/retrieval-local/index.ts";
import { RedisDocsSync } from "../../adapters/store-redis/index.ts";
import type { AppConfig } from "../../core/config/config.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import type { SiteIndexState, SiteSummary } from "../../core/insights/sites-summary.ts";
import { DocsSyncStore } from "../../core/ports/docs-sync.ts";
import { ChunkIndex } from "../../core/ports/retrieval.ts";
import { memoryLogger } from "../observability/log.ts";
import { describeIndex, indexLayer, withSettings } from "../runtime/adapter-layers.ts";
import { storeLayerFor } from "../runtime/app-layer.ts";
import { siteKeyPrefix } from "../sites/site-store.ts";
import { settingsOf, todayFigures } from "../sites/site-summary.ts";

/** Why a figure is not known from here. */
export const UNKNOWN_WITHOUT_REDIS = "unknown without REDIS_URL";

export type SiteFacts = Omit<SiteSummary, "lastSync" | "today"> & {
  readonly lastSync: SiteSummary["lastSync"] | typeof UNKNOWN_WITHOUT_REDIS;
  readonly today: SiteSummary["today"] | typeof UNKNOWN_WITHOUT_REDIS;
};

/** The index as stored: chunks and files from the local file, chunks from Chroma. */
const indexOf = async (config: AppConfig): Promise<SiteIndexState> => {
  const where = describeIndex(config.vector);
  if (config.vector.kind === "local") {
    const path = config.vector.indexPath;
    const data = await Effect.runPromise(readIndexFile(path));
    if (data === undefined) return { where, state: "missing", chunks: null, files: null, bytes: null };
    return { where, state: "built", chunks: data.count, files: data.files, bytes: statSync(path).size };
  }
  const existing = await Effect.runPromise(
    Effect.flatMap(ChunkIndex, (index) => index.existing).pipe(
      Effect.provide(withSettings(config, indexLayer())),
      Effect.result,
    ),
  );
  if (existing._tag === "Failure") return { where, state: "unknown", chunks: null, files: null, bytes: null };
  const chunks = existing.success.size;
  return { where, state: chunks === 0 ? "missing" : "built", chunks, files: null, bytes: null };
};

/** The site's last docs sync on Redis (a folder site has none). */
const lastSyncOf = async (site: SiteDefinition, config: AppConfig): Promise<SiteFacts["lastSync"]> => {
  if (site.docs.kind === "folder") return null;
  if (config.redis === undefined) return UNKNOWN_WITHOUT_REDIS;
  const store = RedisDocsSync.layer({ url: config.redis, keyPrefix: siteKeyPrefix(site.id) });
  const record = await Effect.runPromise(
    Effect.flatMap(DocsSyncStore, (sync) => sync.last).pipe(Effect.provide(store), Effect.orDie),
  );
  return record ?? null;
};

/** Today's figures from the site's insights on Redis. */
const todayFromStore = async (site: SiteDefinition, config: AppConfig): Promise<SiteFacts["today"]> => {
  if (config.redis === undefined) return UNKNOWN_WITHOUT_REDIS;
  const runtime = ManagedRuntime.make(
    storeLayerFor(config, memoryLogger().logger, {}, siteKeyPrefix(site.id)),
  );
  try {
    const outcome = await runtime.runPromise(Effect.result(todayFigures));
    return outcome._tag === "Success" ? outcome.success : null;
  } finally {
    await runtime.dispose();
  }
};

/** Everything `npm run sites` says of `site`, whose settings are `config` (siteAppConfig). */
export const siteFacts = async (
  site: SiteDefinition,
  config: AppConfig,
  serviceWallet: string | undefined,
): Promise<SiteFacts> => ({
  ...settingsOf(site, serviceWallet),
  index: await indexOf(config),
  lastSync: await lastSyncOf(site, config),
  today: await todayFromStore(site, config),
});
