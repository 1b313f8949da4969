/** The shared, durable store on Redis (every port of core/ports/store-services.ts): `RedisStore.layer({ url, limits, keyPrefix? })`. */

/** The shared answer cache on Redis: `RedisAnswerCache.layer({ url })`. */
export * as RedisAnswerCache from "./answers/redis-answer-cache.ts";
/** The docs-site sync's lease and last record, shared: `RedisDocsSync.layer({ url })`. */
export * as RedisDocsSync from "./docs-sync/redis-docs-sync.ts";
export * as RedisStore from "./redis-store.ts";
