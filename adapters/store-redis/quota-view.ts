/**
 * The Redis store's quota view as a plain promise: GET /api/status is the busiest request, and
 * on Redis the effect runtime around its one HGETALL cost more than the read's own work. An
 * adapter service, not a core port (as MemoryQuotaView for the memory store): only the status
 * route looks for it. The same read and decoding as QuotaStore.view; a failure is the same
 * StoreUnavailable, returned rather than thrown. This file imports no runtime code, so the
 * route can know the service without loading the Redis client (view-at.ts does the reading).
 */
import { Context } from "effect";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { QuotaView } from "../../core/quota.ts";

export class RedisQuotaView extends Context.Service<
  RedisQuotaView,
  { readonly view: (identity: string) => Promise<QuotaView | StoreUnavailable> }
>()("adapters/store-redis/RedisQuotaView") {}
