/**
 * The pending settlements (core/payments/pending-settlement.ts), one contract on memory and on a
 * real redis-server, two instances' views of one store: an entry is found by every instance,
 * replaced by a new record of the same transaction, closed only by the lease that recorded it
 * and by exactly one of two closers racing; a full table refuses a new entry (nothing is then
 * sent) but not a record of one it holds; the reconciler's lease is held by one instance at a time.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { makeMemoryPendingSettlements } from "../../adapters/store-memory/payments/memory-pending-settlements.ts";
import { redisPendingSettlements } from "../../adapters/store-redis/payments/redis-pending-settlements.ts";
import { close, connect } from "../../adapters/store-redis/redis-client.ts";
import type { PendingSettlement } from "../../core/payments/pending-settlement.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { describeWithRedis, type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { pendingSettlement } from "../support/store-fixtures.ts";

/** A table of two: the cap is reached in the test. */
const CAP = 2;
const entry = (signature: string, lease: string): PendingSettlement =>
  pendingSettlement({ signature, paymentId: `pay_${signature}`, lease, since: 1_000 });

type Instance = ManagedRuntime.ManagedRuntime<PendingSettlements, unknown>;

const contract = (
  name: string,
  instances: () => [Layer.Layer<PendingSettlements>, Layer.Layer<PendingSettlements>],
) =>
  describe(`pending settlements: ${name}`, () => {
    let a: Instance;
    let b: Instance;
    beforeAll(() => {
      const [first, second] = instances();
      [a, b] = [ManagedRuntime.make(first), ManagedRuntime.make(second)];
    });
    afterAll(async () => {
      await Promise.all([a.dispose(), b.dispose()]);
    });
    const run = <A, E>(on: Instance, use: (store: PendingSettlements["Service"]) => Effect.Effect<A, E>) =>
      on.runPromise(Effect.flatMap(PendingSettlements, use));

    test("recorded, replaced, closed only by its lease and by one of two racing closers; the cap refuses only new ones", async () => {
      expect(await run(a, (s) => s.record(entry("s1", "l1")))).toBe(true);
      expect(await run(b, (s) => s.find("s1"))).toEqual(entry("s1", "l1"));
      // A retry of the same transaction records its own lease over it.
      expect(await run(b, (s) => s.record(entry("s1", "l2")))).toBe(true);
      expect(await run(a, (s) => s.close("s1", "l1"))).toBe(false);
      expect(await run(a, (s) => s.record(entry("s2", "l3")))).toBe(true);
      // Full: a third transaction is refused, the ones it holds may be recorded again.
      expect(await run(b, (s) => s.record(entry("s3", "l4")))).toBe(false);
      expect(await run(b, (s) => s.record(entry("s2", "l3")))).toBe(true);
      expect((await run(b, (s) => s.list(10))).map((e) => e.signature).sort()).toEqual(["s1", "s2"]);
      const closers = await Promise.all([
        run(a, (s) => s.close("s1", "l2")),
        run(b, (s) => s.close("s1", "l2")),
      ]);
      expect(closers.sort()).toEqual([false, true]);
      expect(await run(a, (s) => s.find("s1"))).toBeUndefined();
      expect(await run(b, (s) => s.record(entry("s3", "l4")))).toBe(true);
    });

    test("the reconciler's lease: one instance at a time, given back only by its holder, free once lapsed", async () => {
      expect(await run(a, (s) => s.claimReconciler("a", Date.now(), 60_000))).toBe(true);
      expect(await run(b, (s) => s.claimReconciler("b", Date.now(), 60_000))).toBe(false);
      await run(b, (s) => s.releaseReconciler("b"));
      expect(await run(b, (s) => s.claimReconciler("b", Date.now(), 60_000))).toBe(false);
      await run(a, (s) => s.releaseReconciler("a"));
      expect(await run(b, (s) => s.claimReconciler("b", Date.now(), 50))).toBe(true);
      await Bun.sleep(120);
      expect(await run(a, (s) => s.claimReconciler("a", Date.now(), 60_000))).toBe(true);
    });
  });

contract("memory", () => {
  const shared = makeMemoryPendingSettlements(CAP);
  return [Layer.succeed(PendingSettlements)(shared), Layer.succeed(PendingSettlements)(shared)];
});

describeWithRedis("pending settlements on Redis", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  const onRedis = (prefix: string) =>
    Layer.effect(PendingSettlements)(
      Effect.gen(function* () {
        const client = yield* Effect.acquireRelease(connect({ url: server.url }), close);
        return redisPendingSettlements(client, prefix, CAP);
      }).pipe(Effect.orDie),
    );
  contract("redis", () => [onRedis("pending-a:"), onRedis("pending-a:")]);
});

describeWithRedis("pending settlements on Redis Cluster", () => {
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  const onCluster = (prefix: string) =>
    Layer.effect(PendingSettlements)(
      Effect.gen(function* () {
        const client = yield* Effect.acquireRelease(connect({ url: cluster.target() }), close);
        return redisPendingSettlements(client, prefix, CAP);
      }).pipe(Effect.orDie),
    );
  contract("redis-cluster", () => [onCluster("pending-a:"), onCluster("pending-a:")]);
});
