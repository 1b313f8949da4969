/** The shared, durable QuotaStore + PaymentStore + FeedbackStore + InsightsStore on Redis: `RedisStore.layer({ url, limits, keyPrefix? })`. */
export { RedisQuotaView } from "./quota-view.ts";
export * as RedisStore from "./redis-store.ts";
