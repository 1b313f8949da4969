/** The volatile in-memory QuotaStore + PaymentStore + FeedbackStore: `MemoryStore.layer(limits)`. */
export * as MemoryStore from "./memory-store.ts";
export { MemoryQuotaView } from "./quota-view.ts";
