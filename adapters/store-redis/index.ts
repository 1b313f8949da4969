/** The shared, durable QuotaStore + PaymentStore + FeedbackStore on Redis: `RedisStore.layer({ url, limits, keyPrefix? })`. */
export * as RedisStore from "./redis-store.ts";
