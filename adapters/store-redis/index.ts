/** The shared, durable QuotaStore + PaymentStore + FeedbackStore + InsightsStore on Redis: `RedisStore.layer({ url, limits, keyPrefix? })`. */

/** The shared answer cache on Redis: `RedisAnswerCache.layer({ url })`. */
export * as RedisAnswerCache from "./answer-cache.ts";
export { RedisQuotaView } from "./quota-view.ts";
export * as RedisStore from "./redis-store.ts";
