/**
 * Redis must never evict our keys: an evicted `sig:` record would let one transfer be claimed
 * twice, an evicted `quota:` hash would lose paid queries. Many managed Redis default
 * to an LRU policy, so the store refuses to start unless `maxmemory-policy` is `noeviction`.
 * Where CONFIG is disabled (some managed services) the policy cannot be read: that is
 * reported through `onUnverifiable` and the operator's documentation must cover it.
 */
import * as Effect from "effect/Effect";
import type Redis from "ioredis";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";

export const requireNoEviction = (client: Redis, onUnverifiable: () => void = () => undefined) =>
  Effect.tryPromise(() => client.config("GET", "maxmemory-policy") as Promise<unknown>).pipe(
    Effect.matchEffect({
      onFailure: () => Effect.sync(onUnverifiable),
      onSuccess: (reply) => {
        const policy = Array.isArray(reply) ? String(reply[1] ?? "") : "";
        return policy === "noeviction" || policy === ""
          ? Effect.void
          : Effect.fail(
              new StoreUnavailable({
                reason: `redis maxmemory-policy is "${policy}": set it to noeviction so used signatures and paid credits are never evicted`,
              }),
            );
      },
    }),
  );
