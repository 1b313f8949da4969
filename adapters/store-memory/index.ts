/** The volatile in-memory QuotaStore + PaymentStore + FeedbackStore + InsightsStore: `MemoryStore.layer(limits, insightsBounds?)`. */
export * as MemoryStore from "./memory-store.ts";
export { MemoryQuotaView } from "./quota-view.ts";
export { MemoryReferences } from "./reference-view.ts";
