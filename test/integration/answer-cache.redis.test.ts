/**
 * The answer cache on a real redis-server: shared between instances, bounded by its own
 * trimming (the store's Redis never evicts), expiring, and a miss, never a failure, when
 * Redis holds garbage or is down.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { Redis } from "ioredis";
import { RedisAnswerCache } from "../../adapters/store-redis/index.ts";
import { AnswerCache } from "../../core/ports/answer-cache.ts";
import { clusterForSuite, keysOnEveryNode } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const answer = (text: string) => ({ text, tokensUsed: 7 });

describe.skipIf(!redisServerAvailable())("answer cache on Redis", () => {
  let server: RedisServer;
  let raw: Redis;
  const open = (maxEntries = 100) =>
    ManagedRuntime.make(
      RedisAnswerCache.layer({ url: server.url, keyPrefix: "t:", maxEntries, ttlSeconds: 60 }),
    );
  beforeAll(async () => {
    server = await startRedisServer();
    raw = new Redis(server.url);
  });
  afterAll(async () => {
    raw.disconnect();
    await server.stop();
  });

  test("an answer one instance keeps, another reads; declined answers keep their flag", async () => {
    const [a, b] = [open(), open()];
    await a.runPromise(AnswerCache.use((c) => c.set("k1", { ...answer("one"), declined: true })));
    expect(await b.runPromise(AnswerCache.use((c) => c.get("k1")))).toEqual({
      ...answer("one"),
      declined: true,
    });
    expect(await b.runPromise(AnswerCache.use((c) => c.get("nope")))).toBeUndefined();
    expect(await raw.ttl("t:answer:k1")).toBeGreaterThan(50);
    await Promise.all([a.dispose(), b.dispose()]);
  });

  test("bounded: past maxEntries the oldest answers are deleted, key and index entry", async () => {
    await raw.flushall();
    const cache = open(3);
    for (const key of ["a", "b", "c", "d", "e"])
      await cache.runPromise(AnswerCache.use((c) => c.set(key, answer(key))));
    expect(await raw.zcard("t:answers")).toBe(3);
    expect((await raw.keys("t:answer:*")).sort()).toEqual(["t:answer:c", "t:answer:d", "t:answer:e"]);
    expect(await cache.runPromise(AnswerCache.use((c) => c.get("a")))).toBeUndefined();
    expect(await cache.runPromise(AnswerCache.use((c) => c.get("e")))).toEqual(answer("e"));
    await cache.dispose();
  });

  test("garbage under a key, or Redis down, is a miss and a write that fails is ignored", async () => {
    const cache = open();
    await raw.set("t:answer:bad", "{not json");
    await raw.set("t:answer:shape", JSON.stringify({ text: 3 }));
    expect(await cache.runPromise(AnswerCache.use((c) => c.get("bad")))).toBeUndefined();
    expect(await cache.runPromise(AnswerCache.use((c) => c.get("shape")))).toBeUndefined();
    await server.down();
    expect(await cache.runPromise(AnswerCache.use((c) => c.get("k1")))).toBeUndefined();
    await cache.runPromise(AnswerCache.use((c) => c.set("k9", answer("x"))));
    await server.up();
    await cache.dispose();
  });
});

describe.skipIf(!redisServerAvailable())("answer cache on a 3-primary Redis Cluster", () => {
  const cluster = clusterForSuite();
  const open = (keyPrefix: string, maxEntries = 100) =>
    ManagedRuntime.make(
      RedisAnswerCache.layer({ url: cluster.target(), keyPrefix, maxEntries, ttlSeconds: 60 }),
    );
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);

  test("shared by two instances and bounded: the dropped answers are deleted, key and index entry", async () => {
    const [a, b] = [open("t:", 3), open("t:", 3)];
    for (const key of ["a", "b", "c", "d", "e"])
      await a.runPromise(AnswerCache.use((c) => c.set(key, answer(key))));
    expect(await b.runPromise(AnswerCache.use((c) => c.get("e")))).toEqual(answer("e"));
    expect(await b.runPromise(AnswerCache.use((c) => c.get("a")))).toBeUndefined();
    // A site's answers and their index share the site's tag, on whichever primary holds it.
    expect(await keysOnEveryNode(cluster.setup(), "*t:answer*")).toEqual([
      "{t:answers}t:answer:c",
      "{t:answers}t:answer:d",
      "{t:answers}t:answer:e",
      "{t:answers}t:answers",
    ]);
    await Promise.all([a.dispose(), b.dispose()]);
  });
});
