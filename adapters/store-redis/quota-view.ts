/**
 * The Redis store's quota view as a plain promise: GET /api/status is the busiest request, and
 * on Redis the effect runtime around its one HGETALL cost more than the read's own work. An
 * adapter service, not a core port (as MemoryQuotaView for the memory store): only the status
 * route looks for it. The same read and decoding as QuotaStore.view; a failure is the same
 * StoreUnavailable, returned rather than thrown.
 */
import { Context } from "effect";
import type { Redis } from "ioredis";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { QuotaView } from "../../core/quota.ts";
import * as Quota from "../../core/quota.ts";
import { decodeQuotaHash } from "./quota-hash.ts";
import { unavailable } from "./redis-client.ts";

export class RedisQuotaView extends Context.Service<
  RedisQuotaView,
  { readonly view: (identity: string) => Promise<QuotaView | StoreUnavailable> }
>()("adapters/store-redis/RedisQuotaView") {}

/**
 * One identity's view at `now`: one HGETALL, decoded by the rules of core/quota.ts. Never
 * rejects: a Redis failure or a hash our scripts did not write is a StoreUnavailable value.
 */
export const viewAt =
  (client: Redis, quotaKey: (identity: string) => string, limits: Quota.QuotaLimits) =>
  (identity: string, now: number): Promise<QuotaView | StoreUnavailable> =>
    client.hgetall(quotaKey(identity)).then(
      (hash) => {
        const state = decodeQuotaHash(hash, now);
        return state === undefined
          ? new StoreUnavailable({ reason: "corrupt quota state" })
          : Quota.view(state, now, limits);
      },
      (cause: unknown) => unavailable(cause),
    );
