/** The volatile in-memory QuotaStore + PaymentStore + PaymentRequests + FeedbackStore + InsightsStore (every port of core/ports/store-services.ts): `MemoryStore.layer(limits, insightsBounds?)`. */

/** The bounded in-process answer cache: `MemoryAnswerCache.layer(maxEntries)`. */
export * as MemoryAnswerCache from "./answers/memory-answer-cache.ts";
/** The ceiling counter in one process (an instance's own ceilings, and the memory store's): `makeMemoryCeilingCounter`. */
export { makeMemoryCeilingCounter } from "./ceilings/memory-ceiling-counter.ts";
/** The docs-site sync's lease and last record in this process: `MemoryDocsSync.layer`. */
export * as MemoryDocsSync from "./docs-sync/memory-docs-sync.ts";
/** Recent conversation turns in this process (the memory store's Conversations): `makeMemoryConversations`. */
export { makeMemoryConversations } from "./memory-conversations.ts";
export * as MemoryStore from "./memory-store.ts";
/** The ledger of used signatures, shared by the stores of a service's hosted sites: `UsedSignatures`. */
export { UsedSignatures } from "./payments/used-signatures.ts";
