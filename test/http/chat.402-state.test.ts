/**
 * A stranger cannot multiply stored state with 402s: a chat 402 offers a sealed payment request
 * and a sealed sign-in challenge (core/payments/sealed-request.ts, core/sign-in/sealed-nonce.ts),
 * so 5,000 of them from 100 addresses leave no payment request and no sign-in nonce in the
 * memory store (/metrics) or in Redis (no x402: or siwx: key). A flood of 402s from thousands
 * of addresses is the stranger-flood benchmark's (`npm run bench -- strangers`).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { askChat } from "../support/chat-402.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { METRICS_TOKEN, type TestApp, testApps } from "../support/test-app.ts";

const build = testApps(afterAll);
const ADDRESSES = 100;
const ROUNDS = 50;

/** ROUNDS questions from each of ADDRESSES clients, round-robin (each stays under its rate limit). */
const flood = async (t: TestApp) => {
  const statuses = new Map<number, number>();
  for (let round = 0; round < ROUNDS; round++)
    for (let address = 0; address < ADDRESSES; address++) {
      const res = await askChat(t, `2001:db8:${address.toString(16)}::1`);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await res.body?.cancel();
    }
  return statuses;
};

const entries = async (t: TestApp, structure: string) => {
  const text = await (
    await t.call("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  return Number(
    new RegExp(`^bounded_structure_entries\\{structure="${structure}"\\} (\\d+)$`, "m").exec(text)?.[1],
  );
};

describe("5,000 chat 402s from 100 addresses", () => {
  test("leave no payment request and no sign-in nonce in the memory store", async () => {
    const t = build({ freeQueries: 1 });
    const statuses = await flood(t);
    expect(statuses.get(402)).toBe(ADDRESSES * (ROUNDS - 1));
    expect(await entries(t, "payment_requests")).toBe(0);
    expect(await entries(t, "sign_in_nonces")).toBe(0);
  });

  describe.skipIf(!redisServerAvailable())("on Redis", () => {
    const context = useRedisServer();
    test("leave no x402: and no siwx: key, and Redis's memory grows by less than 2 MB", async () => {
      const keyPrefix = "flood-402:";
      const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
      const t = build({
        freeQueries: 1,
        store: RedisStore.layer({ url: context.redis.url, limits, keyPrefix }),
      });
      const raw = new Redis(context.redis.url);
      try {
        const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await raw.info("memory"))?.[1]);
        await askChat(t, "2001:db8:ffff::1");
        const before = await usedMemory();
        const statuses = await flood(t);
        expect(statuses.get(402)).toBe(ADDRESSES * (ROUNDS - 1));
        expect(await raw.keys(`${keyPrefix}x402:*`)).toEqual([]);
        expect(await raw.keys(`${keyPrefix}siwx:*`)).toEqual([]);
        // The 100 clients' quota states are all that is new (a stored 402 was ~400 bytes each).
        expect((await usedMemory()) - before).toBeLessThan(2_000_000);
      } finally {
        raw.disconnect();
      }
    });
  });
});
