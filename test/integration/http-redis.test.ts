/**
 * The HTTP app on a real Redis: two app instances (two runtimes, two connections) sharing one
 * server behave as one service, and nothing is served free when Redis is down or holds a
 * quota state the store did not write.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { waitFor } from "../support/free-port.ts";
import {
  type RedisServer,
  rawClient,
  redisServerAvailable,
  startRedisServer,
} from "../support/redis-server.ts";
import { METRICS_TOKEN, testApps } from "../support/test-app.ts";

const limits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 120_000 };

describe.skipIf(!redisServerAvailable())("HTTP on a shared Redis", () => {
  let redis: RedisServer;
  const build = testApps();
  const instance = (keyPrefix: string) =>
    build({
      freeQueries: 3,
      store: RedisStore.layer({ url: redis.url, limits, keyPrefix }),
    });

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis.stop());

  test("50 simultaneous chats split over two instances -> exactly 3 answers, 47 x 402", async () => {
    const [a, b] = [instance("race:"), instance("race:")];
    a.switches.generationDelayMs = 15;
    b.switches.generationDelayMs = 15;
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).chat(`q${i}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(47);
    expect((await (await b.call("/api/status")).json()).remaining).toBe(0);
  });

  test("a follow-up that reaches the other instance is retrieved with the previous question", async () => {
    const [a, b] = [instance("follow-up:"), instance("follow-up:")];
    await a.chat("How do I write a file with fs?", undefined, { conversationId: "c-1" });
    await b.chat("and how do I delete it?", undefined, { conversationId: "c-1" });
    expect(b.switches.retrieved[0]).toBe("How do I write a file with fs?\nand how do I delete it?");
    // Another client naming the same conversation id starts its own.
    await b.chat("and how do I delete it?", "198.51.100.9", { conversationId: "c-1" });
    expect(b.switches.retrieved[1]).toBe("and how do I delete it?");
  });

  test("queries used on one instance are seen by a new instance (restart of the app)", async () => {
    const first = instance("restart:");
    expect((await first.chat("q")).status).toBe(200);
    await first.dispose();
    const second = instance("restart:");
    expect((await (await second.call("/api/status")).json()).remaining).toBe(2);
  });

  test("a corrupt quota hash -> 503 on status and chat, never a guess or a free answer", async () => {
    const t = instance("corrupt:");
    expect((await t.chat("q")).status).toBe(200);
    const raw = rawClient(redis.url);
    try {
      const keys = await raw.keys("corrupt:quota:*");
      expect(keys).toHaveLength(1);
      await raw.hset(keys[0]!, "unexpected", "1");
      for (const response of [await t.call("/api/status"), await t.chat("q2")]) {
        expect(response.status).toBe(503);
        expect((await response.json()).code).toBe("STORE_UNAVAILABLE");
      }
      await raw.hdel(keys[0]!, "unexpected");
      expect((await (await t.call("/api/status")).json()).remaining).toBe(2);
    } finally {
      raw.disconnect();
    }
  });

  test("Redis down -> 503 on stateful endpoints (fail closed), never a free answer; back when Redis returns", async () => {
    const t = instance("down:");
    expect((await t.call("/api/status")).status).toBe(200); // the service is up and connected
    await redis.down();
    const chat = await t.chat("q");
    expect(chat.status).toBe(503);
    expect((await chat.json()).code).toBe("STORE_UNAVAILABLE");
    expect((await t.call("/api/status")).status).toBe(503);
    // The payment details need no store: the caller's memo reference is sealed, not stored.
    expect((await t.call("/api/payment/info")).status).toBe(200);
    // The problem texts name the host: only for the operator's METRICS_TOKEN.
    const ready = await t.call("/readyz", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ready.status).toBe(503);
    const readiness = await ready.json();
    expect(readiness.checks.store).toBe("unavailable");
    expect(readiness.problems.store).toMatch(new RegExp(`^Redis at 127\\.0\\.0\\.1:${redis.port}: redis `));
    expect((await t.call("/healthz")).status).toBe(200);
    await redis.up();
    await waitFor(
      async () => (await t.call("/api/status")).status === 200,
      4000,
      "the status endpoint to recover with Redis",
    );
    expect((await t.call("/api/status")).status).toBe(200);
    expect((await (await t.call("/api/status")).json()).remaining).toBe(3);
  });
});
