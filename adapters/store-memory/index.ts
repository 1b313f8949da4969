/** The volatile in-memory QuotaStore + PaymentStore + FeedbackStore + InsightsStore: `MemoryStore.layer(limits, insightsBounds?)`. */

/** The bounded in-process answer cache: `MemoryAnswerCache.layer(maxEntries)`. */
export * as MemoryAnswerCache from "./answer-cache.ts";
export * as MemoryStore from "./memory-store.ts";
export { MemoryQuotaView } from "./quota-view.ts";
export { MemoryReferences } from "./reference-view.ts";
