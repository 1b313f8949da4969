/** The volatile in-memory QuotaStore + PaymentStore + PaymentRequests + FeedbackStore + InsightsStore + QuickReads: `MemoryStore.layer(limits, insightsBounds?)`. */

/** The bounded in-process answer cache: `MemoryAnswerCache.layer(maxEntries)`. */
export * as MemoryAnswerCache from "./answer-cache.ts";
export * as MemoryStore from "./memory-store.ts";
