/**
 * The chain lookup budget on the ceiling counter, memory and Redis against the pure rule:
 * random sequences of lookups (a few clients, signatures and payment_ids, minutes passing) run
 * on a tiny model built on admitLookup, and through admitChainLookup on the memory store's
 * counter and on the Redis store's script, and every verdict must be the same on all three.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import fc from "fast-check";
import { makeMemoryCeilingCounter } from "../../adapters/store-memory/ceilings/memory-ceiling-counter.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { RedisAddress } from "../../adapters/store-redis/redis-client.ts";
import {
  admitLookup,
  type ChainLookupCeilings,
  ChainLookupLimits,
  type LookupRequest,
  windowOf,
} from "../../core/payments/chain-lookup-budget.ts";
import { CeilingCounter } from "../../core/ports/ceiling-counter.ts";
import { admitChainLookup } from "../../core/use-cases/reserve-chain-lookup.ts";
import { clusterTarget } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { type ClusterSetup, startCluster } from "../support/redis-topologies.ts";

const CEILINGS: ChainLookupCeilings = { perClientPerMinute: 3, perMinute: 5, perPayment: 2 };
const START = Date.UTC(2026, 0, 1, 12, 0, 0);
/** Far beyond any sequence's time: expiry is not what this model checks (Redis expires in real time). */
const EXPIRES = START + 86_400_000;

/** The rule over plain maps: what every store must answer. */
const model = () => {
  const counts = new Map<string, number>();
  const payments = new Map<string, string[]>();
  return (request: LookupRequest, now: number) => {
    const { window } = windowOf(now);
    const key = (who: string) => `${window}|${who}`;
    const signatures = request.payment === undefined ? [] : (payments.get(request.payment.id) ?? []);
    const verdict = admitLookup(
      {
        client: counts.get(key(`c:${request.client}`)) ?? 0,
        everyone: counts.get(key("all")) ?? 0,
        paymentSignatures: signatures,
      },
      request,
      CEILINGS,
      now,
    );
    if (verdict.admitted) {
      counts.set(key(`c:${request.client}`), (counts.get(key(`c:${request.client}`)) ?? 0) + 1);
      counts.set(key("all"), (counts.get(key("all")) ?? 0) + 1);
      if (request.payment !== undefined && !signatures.includes(request.signature))
        payments.set(request.payment.id, [...signatures, request.signature]);
    }
    return verdict;
  };
};

const step = fc.record({
  client: fc.constantFrom("a", "b", "c"),
  signature: fc.constantFrom("s1", "s2", "s3", "s4"),
  payment: fc.constantFrom(undefined, "p1", "p2"),
  // Mostly within a minute; now and then into the next ones.
  advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 }), fc.constant(61_000)),
});

let server: RedisServer | undefined;
// The same counters on a 3-primary cluster: an admit's counters share the ceilings' hash tag.
let cluster: ClusterSetup | undefined;
beforeAll(async () => {
  if (!redisServerAvailable()) return;
  server = await startRedisServer();
  cluster = await startCluster();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await cluster?.stop();
});

const limits = Layer.succeed(ChainLookupLimits)(CEILINGS);

describe("chain lookup budget: model, memory and Redis agree", () => {
  test("on random sequences of lookups", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const expected = model();
        const memory = ManagedRuntime.make(
          Layer.merge(Layer.succeed(CeilingCounter)(makeMemoryCeilingCounter().counter), limits),
        );
        const onRedis = (url: RedisAddress) =>
          ManagedRuntime.make(
            Layer.merge(
              RedisStore.layer({
                url,
                limits: { freePerDay: 1, paidDailyCap: 10, holdTtlMs: 60_000 },
                keyPrefix: `lk-${crypto.randomUUID()}:`,
              }),
              limits,
            ),
          );
        const redis = server === undefined ? undefined : onRedis(server.url);
        const onCluster = cluster === undefined ? undefined : onRedis(clusterTarget(cluster.nodes));
        try {
          let now = START;
          for (const { client, signature, payment, advanceMs } of steps) {
            now += advanceMs;
            const request: LookupRequest = {
              client,
              signature,
              ...(payment === undefined ? {} : { payment: { id: payment, expiresAt: EXPIRES } }),
            };
            const want = expected(request, now);
            expect(await memory.runPromise(admitChainLookup(request, now))).toEqual(want);
            if (redis !== undefined)
              expect(await redis.runPromise(admitChainLookup(request, now))).toEqual(want);
            if (onCluster !== undefined)
              expect(await onCluster.runPromise(admitChainLookup(request, now))).toEqual(want);
          }
        } finally {
          await Promise.all([memory.dispose(), redis?.dispose(), onCluster?.dispose()]);
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
