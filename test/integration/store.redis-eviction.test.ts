/** The Redis store refuses a server that may evict keys (used signatures, paid credits). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const limits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 120_000 };
const build = (url: string) =>
  Effect.runPromiseExit(Effect.scoped(Layer.build(RedisStore.layer({ url, limits })).pipe(Effect.asVoid)));

describe.skipIf(!redisServerAvailable())("Redis eviction policy", () => {
  let lru: RedisServer;
  let safe: RedisServer;
  beforeAll(async () => {
    [lru, safe] = await Promise.all([
      startRedisServer({ args: ["--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru"] }),
      startRedisServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([lru.stop(), safe.stop()]);
  });

  test("a server that may evict keys is refused at start, naming the fix", async () => {
    const exit = await build(lru.url);
    expect(exit._tag).toBe("Failure");
    expect(JSON.stringify(exit)).toContain("noeviction");
  });

  test("a noeviction server is accepted", async () => {
    const exit = await build(safe.url);
    expect(exit._tag).toBe("Success");
    const view = await Effect.runPromise(
      Effect.flatMap(QuotaStore, (store) => store.view("a", Date.now())).pipe(
        Effect.provide(RedisStore.layer({ url: safe.url, limits })),
      ),
    );
    expect(view.remaining).toBe(3);
  });
});
