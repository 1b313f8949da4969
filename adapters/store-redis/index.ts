/** The shared, durable QuotaStore + PaymentStore + PaymentRequests + FeedbackStore + InsightsStore + QuickReads on Redis: `RedisStore.layer({ url, limits, keyPrefix? })`. */

/** The shared answer cache on Redis: `RedisAnswerCache.layer({ url })`. */
export * as RedisAnswerCache from "./answer-cache.ts";
/** The docs-site sync's lease and last record, shared: `RedisDocsSync.layer({ url })`. */
export * as RedisDocsSync from "./docs-sync.ts";
export * as RedisStore from "./redis-store.ts";
