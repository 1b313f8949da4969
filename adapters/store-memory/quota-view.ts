/**
 * The memory store's quota view, answered at once: no I/O stands behind it, so GET
 * /api/status (the busiest route) can skip the effect runtime when this store is in use. An
 * adapter service, not a core port: only the status route looks for it. Time comes from the
 * runtime's Clock, like every other read of the store.
 */
import { Context } from "effect";
import type { QuotaView } from "../../core/quota.ts";

export class MemoryQuotaView extends Context.Service<
  MemoryQuotaView,
  { readonly view: (identity: string) => QuotaView }
>()("adapters/store-memory/MemoryQuotaView") {}
