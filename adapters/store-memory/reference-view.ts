/**
 * The memory store's memo references, handed out at once: no I/O stands behind them, so GET
 * /api/payment/info can skip the effect runtime when this store is in use (as GET /api/status
 * does with MemoryQuotaView). An adapter service, not a core port: only that route looks for it.
 */
import { Context } from "effect";

export class MemoryReferences extends Context.Service<
  MemoryReferences,
  { readonly referenceFor: (identity: string) => string }
>()("adapters/store-memory/MemoryReferences") {}
