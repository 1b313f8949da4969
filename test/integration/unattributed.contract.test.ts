/**
 * One contract for every UnattributedPayments store, held to an independent expected list: one
 * entry per signature, oldest first (ties by signature), nothing older than the retention, at
 * most the cap (the oldest go first). The memory store and the Redis store (a real
 * redis-server, two instances on one list).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { UnattributedBounds, UnattributedPayment } from "../../core/payments/unattributed.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { UnattributedPayments } from "../../core/ports/unattributed-payments.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
const BOUNDS: UnattributedBounds = { retentionMs: 10_000, maxEntries: 3 };
type MakeLayer = (namespace: string) => Layer.Layer<UnattributedPayments, StoreUnavailable>;

const entry = (signature: string, at: number): UnattributedPayment => ({
  signature,
  payer: "Payer1111111111111111111111111111111111111",
  units: 12_345n,
  at,
  reason: "memo-not-ours",
  paymentId: "",
});

const contract = (name: string, makeLayer: MakeLayer, shared: boolean) =>
  describe(`${name} UnattributedPayments contract`, () => {
    const runtimes: Array<ManagedRuntime.ManagedRuntime<UnattributedPayments, StoreUnavailable>> = [];
    afterAll(() => Promise.all(runtimes.map((runtime) => runtime.dispose())));
    const open = () => {
      const namespace = `unattributed-${crypto.randomUUID()}:`;
      const first = ManagedRuntime.make(makeLayer(namespace));
      const second = shared ? ManagedRuntime.make(makeLayer(namespace)) : first;
      runtimes.push(first, second);
      const client = (runtime: typeof first) => ({
        record: (payment: UnattributedPayment, now: number) =>
          runtime.runPromise(UnattributedPayments.use((s) => s.record(payment, now))),
        all: (now: number) =>
          runtime.runPromise(UnattributedPayments.use((s) => s.between(0, Number.MAX_SAFE_INTEGER, now))),
      });
      return [client(first), client(second)] as const;
    };
    const t0 = 1_800_000_000_000;

    test("one entry per signature, oldest first with ties by signature, read back whole", async () => {
      const [store, peer] = open();
      await store.record(entry("sigB", t0 + 2), t0 + 2);
      await peer.record(entry("sigA", t0 + 2), t0 + 2);
      await store.record(entry("sigC", t0 + 1), t0 + 3);
      // The same signature again, even with other facts, changes nothing.
      await peer.record({ ...entry("sigA", t0 + 5), units: 1n }, t0 + 5);
      expect(await peer.all(t0 + 5)).toEqual([
        entry("sigC", t0 + 1),
        entry("sigA", t0 + 2),
        entry("sigB", t0 + 2),
      ]);
    });

    test("past the cap the oldest go; past the retention entries are gone, on read and on record", async () => {
      const [store, peer] = open();
      for (let i = 0; i < 5; i++) await store.record(entry(`sig${i}`, t0 + i * 1000), t0 + i * 1000);
      expect((await peer.all(t0 + 4000)).map((e) => e.signature)).toEqual(["sig2", "sig3", "sig4"]);
      // At t0 + 12,000 the retention (10 s) keeps only what is later than t0 + 2,000.
      expect((await peer.all(t0 + 12_000)).map((e) => e.signature)).toEqual(["sig3", "sig4"]);
      await peer.record(entry("sig9", t0 + 13_500), t0 + 13_500);
      expect((await store.all(t0 + 13_500)).map((e) => e.signature)).toEqual(["sig4", "sig9"]);
    });
  });

contract("memory", () => MemoryStore.layer(LIMITS, undefined, BOUNDS), false);

if (redisServerAvailable()) {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  contract(
    "redis",
    (keyPrefix) =>
      RedisStore.layer({ url: server?.url ?? "", limits: LIMITS, keyPrefix, unattributed: BOUNDS }),
    true,
  );
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  contract(
    "redis-cluster",
    (keyPrefix) =>
      RedisStore.layer({ url: cluster.target(), limits: LIMITS, keyPrefix, unattributed: BOUNDS }),
    true,
  );
}
