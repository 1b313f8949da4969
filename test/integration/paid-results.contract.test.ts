/**
 * The results kept by payment identifier (core/ports/paid-results.ts), one suite on the memory
 * store and on a real redis-server: the first result stays however many keep it at once, a
 * result without its body round-trips, the oldest are dropped past the cap, and a result lives
 * as long as the payment's record.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { Redis } from "ioredis";
import { makeMemoryPaidResults } from "../../adapters/store-memory/payments/memory-paid-results.ts";
import { keyLayout } from "../../adapters/store-redis/keys.ts";
import { redisPaidResults } from "../../adapters/store-redis/payments/redis-paid-results.ts";
import { close, connect } from "../../adapters/store-redis/redis-client.ts";
import type { StoreClient } from "../../adapters/store-redis/store-client.ts";
import {
  PAID_RESULT_RETENTION_MS,
  type PaidResult,
  resendOf,
} from "../../core/payments/payment-identifier.ts";
import type { PaidResults } from "../../core/ports/paid-results.ts";
import { clusterTarget } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { type ClusterSetup, startCluster } from "../support/redis-topologies.ts";

const NOW = 1_800_000_000_000;
const result = (digest: string, body: string | undefined = `{"answer":"${digest}"}`): PaidResult => ({
  digest,
  status: 200,
  headers: { "content-type": "application/json", "payment-response": "e30=" },
  body,
  keptAt: NOW,
});

let server: RedisServer | undefined;
let raw: Redis | undefined;
// The same results on a 3-primary cluster: a site's results and their index share a hash tag.
let cluster: ClusterSetup | undefined;
let onCluster: StoreClient | undefined;
beforeAll(async () => {
  if (!redisServerAvailable()) return;
  server = await startRedisServer();
  raw = new Redis(server.url);
  cluster = await startCluster();
  onCluster = await Effect.runPromise(connect({ url: clusterTarget(cluster.nodes) }));
}, 60_000);
afterAll(async () => {
  raw?.disconnect();
  if (onCluster !== undefined) await Effect.runPromise(close(onCluster));
  await server?.stop();
  await cluster?.stop();
});

const STORES: ReadonlyArray<readonly [string, (max: number) => PaidResults["Service"]]> = [
  ["memory", (max) => makeMemoryPaidResults(max).results],
  ...(redisServerAvailable()
    ? ([
        [
          "redis",
          (max: number) => {
            if (raw === undefined) throw new Error("redis did not start");
            return redisPaidResults(raw, keyLayout(`pr-${crypto.randomUUID()}:`), max);
          },
        ],
        [
          "redis-cluster",
          (max: number) => {
            if (onCluster === undefined) throw new Error("the cluster did not start");
            const prefix = `pr-${crypto.randomUUID()}:`;
            return redisPaidResults(onCluster, keyLayout(prefix, prefix, true), max);
          },
        ],
      ] as const)
    : []),
];

describe.each(STORES)("paid results (%s)", (_name, open) => {
  test("the first result stays: twenty keeps at once all get it back, and find reads it", async () => {
    const results = open(100);
    expect(await Effect.runPromise(results.find("route:pay_0123456789abcdef", NOW))).toBeUndefined();
    const kept = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        Effect.runPromise(results.keep("route:pay_0123456789abcdef", result(`d${i}`), NOW)),
      ),
    );
    const first = kept[0];
    expect(first?.digest).toBe("d0");
    for (const each of kept) expect(each).toEqual(result("d0"));
    expect(await Effect.runPromise(results.find("route:pay_0123456789abcdef", NOW + 1))).toEqual(
      result("d0"),
    );
  });

  test("a result kept without its body (streamed, or too large) round-trips as such", async () => {
    const results = open(100);
    await Effect.runPromise(results.keep("k", result("big", undefined), NOW));
    expect(await Effect.runPromise(results.find("k", NOW))).toEqual(result("big", undefined));
  });

  test("bounded: past the cap the oldest results are dropped", async () => {
    const results = open(3);
    for (const [i, key] of ["a", "b", "c", "d", "e"].entries())
      await Effect.runPromise(results.keep(key, { ...result(key), keptAt: NOW + i }, NOW + i));
    const found = await Promise.all(
      ["a", "b", "c", "d", "e"].map((key) => Effect.runPromise(results.find(key, NOW + 5))),
    );
    expect(found.map((each) => each?.digest)).toEqual([undefined, undefined, "c", "d", "e"]);
  });

  test("a result is a replay for as long as the payment's record, then a new payment", async () => {
    const results = open(100);
    await Effect.runPromise(results.keep("k", result("d"), NOW));
    const at = async (now: number) =>
      resendOf(await Effect.runPromise(results.find("k", now)), "d", now).kind;
    // Another payload under the id, while it is kept: a conflict.
    expect(resendOf(await Effect.runPromise(results.find("k", NOW)), "other", NOW).kind).toBe("conflict");
    expect(await at(NOW + PAID_RESULT_RETENTION_MS - 1)).toBe("replay");
    expect(await at(NOW + PAID_RESULT_RETENTION_MS)).toBe("new");
  });
});

describe.skipIf(!redisServerAvailable())("paid results on Redis", () => {
  test("each result key expires with the payment's record; the index holds only live ones", async () => {
    if (raw === undefined) throw new Error("redis did not start");
    const prefix = `pr-${crypto.randomUUID()}:`;
    const results = redisPaidResults(raw, keyLayout(prefix), 100);
    await Effect.runPromise(results.keep("k", result("d"), Date.now()));
    const ttl = await raw.pttl(`${prefix}pid:k`);
    expect(ttl).toBeGreaterThan(PAID_RESULT_RETENTION_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(PAID_RESULT_RETENTION_MS);
    expect(await raw.zcard(`${prefix}pids`)).toBe(1);
  });

  test("garbage under a key is an outage (503), never a replay", async () => {
    if (raw === undefined) throw new Error("redis did not start");
    const prefix = `pr-${crypto.randomUUID()}:`;
    await raw.set(`${prefix}pid:k`, "{not json");
    const results = redisPaidResults(raw, keyLayout(prefix), 100);
    const exit = await Effect.runPromiseExit(results.find("k", NOW));
    expect(exit._tag).toBe("Failure");
  });
});
