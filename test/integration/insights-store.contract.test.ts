/**
 * One contract for every InsightsStore: the memory store and the Redis store (a real
 * redis-server) keep and return the same events, in time order, within the same bounds. For
 * Redis, concurrent appends run over two connections, as two service instances would.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { Redis } from "ioredis";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { InsightEvent } from "../../core/insights/events.ts";
import { type InsightsBounds, InsightsStore } from "../../core/ports/insights-store.ts";
import { DAY_MS } from "../../core/time.ts";
import { payment, question, source, T0, vote } from "../support/insight-events.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
const BOUNDS: InsightsBounds = { retentionMs: 30 * DAY_MS, maxEvents: 1000 };
type MakeLayer = (namespace: string, bounds: InsightsBounds) => Layer.Layer<InsightsStore, unknown>;

const insightsContract = (name: string, makeLayer: MakeLayer, shared: boolean) =>
  describe(`${name} insights store contract`, () => {
    const runtimes: ManagedRuntime.ManagedRuntime<InsightsStore, unknown>[] = [];
    afterAll(() => Promise.all(runtimes.map((runtime) => runtime.dispose())));
    let namespaces = 0;
    /** A fresh store (and, where the store is shared, a second connection to it). */
    const open = (bounds: InsightsBounds = BOUNDS) => {
      const namespace = `${name}-${namespaces++}:`;
      const connect = () => {
        const runtime = ManagedRuntime.make(makeLayer(namespace, bounds));
        runtimes.push(runtime);
        return {
          append: (event: InsightEvent) => runtime.runPromise(InsightsStore.use((s) => s.append(event))),
          between: (from: number, to: number, now = T0) =>
            runtime.runPromise(InsightsStore.use((s) => s.between(from, to, now))),
        };
      };
      const store = connect();
      return { store, peer: shared ? connect() : store, namespace };
    };
    const ALL: [number, number] = [0, Number.MAX_SAFE_INTEGER];

    test("events come back exactly as appended, oldest first, within [from, to)", async () => {
      const { store } = open();
      const asked = question("¿Cómo pago? 支払い 💸", {
        at: T0 + 2,
        answerId: crypto.randomUUID(),
        conversation: "conv-1",
        sources: [source("pay"), source("price", false)],
        declined: false,
        billing: "paid",
      });
      const events = [
        vote("a1", { at: T0 + 3, comment: "meh" }),
        asked,
        // With the signed receipt the payer was given: kept whole, read back as written.
        payment(50_000, {
          at: T0 + 1,
          dialect: "x402-v2",
          receipt: `eyJhbGciOiJFZERTQSJ9.${"p".repeat(400)}.sig`,
        }),
      ];
      for (const event of events) await store.append(event);
      expect(await store.between(...ALL)).toEqual([events[2], asked, events[0]] as InsightEvent[]);
      expect(await store.between(T0 + 1, T0 + 3)).toEqual([events[2], asked] as InsightEvent[]);
      expect(await store.between(T0 + 4, T0 + 10)).toEqual([]);
    });

    test("two equal events are two events", async () => {
      const { store } = open();
      await store.append(question("same"));
      await store.append(question("same"));
      expect(await store.between(...ALL)).toHaveLength(2);
    });

    test("what the retention no longer allows is gone, at append and at read", async () => {
      const { store } = open({ retentionMs: 10 * DAY_MS, maxEvents: 1000 });
      await store.append(question("old", { at: T0 }));
      await store.append(question("kept", { at: T0 + 5 * DAY_MS }));
      expect((await store.between(...ALL, T0 + 5 * DAY_MS)).map((e) => e.at)).toEqual([T0, T0 + 5 * DAY_MS]);
      // Read 12 days on: the first is past the retention, whatever the range asked for.
      expect((await store.between(...ALL, T0 + 12 * DAY_MS)).map((e) => e.at)).toEqual([T0 + 5 * DAY_MS]);
      await store.append(question("new", { at: T0 + 11 * DAY_MS }));
      expect((await store.between(...ALL, T0)).map((e) => e.at)).toEqual([T0 + 5 * DAY_MS, T0 + 11 * DAY_MS]);
    });

    test("past the cap the oldest go first", async () => {
      const { store } = open({ retentionMs: BOUNDS.retentionMs, maxEvents: 5 });
      for (let i = 0; i < 8; i++) await store.append(question(`q${i}`, { at: T0 + i }));
      expect((await store.between(...ALL)).map((e) => (e._tag === "question" ? e.question : ""))).toEqual([
        "q3",
        "q4",
        "q5",
        "q6",
        "q7",
      ]);
    });

    test("200 concurrent appends (over two connections where shared) are all kept", async () => {
      const { store, peer } = open();
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 === 0 ? store : peer).append(payment(10_000 + i, { at: T0 + (i % 7) })),
        ),
      );
      const kept = await peer.between(...ALL);
      expect(kept).toHaveLength(200);
      expect(kept.map((e) => (e._tag === "payment" ? e.units : 0)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 200 }, (_, i) => 10_000 + i),
      );
      expect(kept.map((e) => e.at)).toEqual([...kept.map((e) => e.at)].sort((a, b) => a - b));
    });
  });

insightsContract("memory", (_, bounds) => MemoryStore.layer(LIMITS, bounds), false);

if (redisServerAvailable()) {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  insightsContract(
    "redis",
    (keyPrefix, insights) => RedisStore.layer({ url: server!.url, limits: LIMITS, keyPrefix, insights }),
    true,
  );
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  insightsContract(
    "redis-cluster",
    (keyPrefix, insights) => RedisStore.layer({ url: cluster.target(), limits: LIMITS, keyPrefix, insights }),
    true,
  );

  describe("the Redis insights log", () => {
    test("skips a member it did not write, and expires after the retention", async () => {
      const raw = new Redis(server!.url);
      const runtime = ManagedRuntime.make(
        Layer.orDie(
          RedisStore.layer({ url: server!.url, limits: LIMITS, keyPrefix: "odd:", insights: BOUNDS }),
        ),
      );
      try {
        await runtime.runPromise(InsightsStore.use((s) => s.append(question("real", { at: T0 }))));
        await raw.zadd("odd:insights:events", T0 + 1, "x {not json", T0 + 2, 'y {"_tag":"question"}');
        const events = await runtime.runPromise(
          InsightsStore.use((s) => s.between(0, Number.MAX_SAFE_INTEGER, T0)).pipe(Effect.orDie),
        );
        expect(events.map((e) => e._tag === "question" && e.question)).toEqual(["real"]);
        const ttl = await raw.pttl("odd:insights:events");
        expect(ttl).toBeGreaterThan(29 * DAY_MS);
        expect(ttl).toBeLessThanOrEqual(BOUNDS.retentionMs);
      } finally {
        raw.disconnect();
        await runtime.dispose();
      }
    });
  });
}
