/** The shared, durable QuotaStore + PaymentStore + PaymentRequests + FeedbackStore + InsightsStore + QuickReads on Redis: `RedisStore.layer({ url, limits, keyPrefix? })`. */

/** The shared answer cache on Redis: `RedisAnswerCache.layer({ url })`. */
export * as RedisAnswerCache from "./answer-cache.ts";
export * as RedisStore from "./redis-store.ts";
