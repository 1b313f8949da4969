/**
 * Redis must never evict our keys: an evicted `sig:` record would let one transfer be claimed
 * twice, an evicted `quota:` hash would lose paid queries. Many managed Redis default
 * to an LRU policy, so the store refuses to start unless `maxmemory-policy` is `noeviction`.
 * On a cluster every node is asked, replicas too: each primary holds part of the keys, and a
 * replica with another policy would evict them once a failover promotes it.
 * Where CONFIG is disabled (some managed services) the policy cannot be read: that is
 * reported through `onUnverifiable` and the operator's documentation must cover it.
 */
import * as Effect from "effect/Effect";
import type { Redis } from "ioredis";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { everyNode, type StoreClient } from "./store-client.ts";

/** The node's policy, or undefined when CONFIG is refused. */
const policyOf = (node: Redis): Promise<string | undefined> =>
  (node.config("GET", "maxmemory-policy") as Promise<unknown>).then(
    (reply) => (Array.isArray(reply) ? String(reply[1] ?? "") : ""),
    () => undefined,
  );

export const requireNoEviction = (client: StoreClient, onUnverifiable: () => void = () => undefined) =>
  Effect.flatMap(
    Effect.promise(() => Promise.all(everyNode(client).map(policyOf))),
    (policies) => {
      const wrong = policies.find(
        (policy) => policy !== undefined && policy !== "noeviction" && policy !== "",
      );
      if (wrong !== undefined)
        return Effect.fail(
          new StoreUnavailable({
            reason: `redis maxmemory-policy is "${wrong}": set it to noeviction so used signatures and paid credits are never evicted`,
          }),
        );
      return policies.includes(undefined) ? Effect.sync(onUnverifiable) : Effect.void;
    },
  );
