/**
 * Durability across a crash: the real process on a real redis-server and the local chain is
 * paid with a real USDC transfer, SIGKILLed right after the 200, and started again. The
 * credits are still there and the signature still counts as used.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { chainEnv, startTestChain, type TestChain } from "../support/localnet.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { buildIndex, type ServiceProcess, startService } from "../support/service-process.ts";

const hasRedis = redisServerAvailable();
let redis: RedisServer | undefined;
let chain: TestChain | undefined;
let service: ServiceProcess | undefined;
let indexPath: string | undefined;

const call = (path: string, body?: unknown) => service!.call(path, body);

describe.skipIf(!hasRedis)("restart on Redis", () => {
  beforeAll(async () => {
    [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
    indexPath = await buildIndex();
    service = await startService({
      env: {
        INDEX_PATH: indexPath,
        REDIS_URL: redis.url,
        RATE_LIMIT_FREE_QUERIES: "0",
        ...chainEnv(chain),
      },
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await chain?.stop();
    await redis?.stop();
    if (indexPath !== undefined) rmSync(dirname(indexPath), { recursive: true, force: true });
  });

  test("credits bought just before a SIGKILL survive the restart; the signature stays used", async () => {
    const before = await (await call("/api/status")).json();
    expect(before).toMatchObject({ remaining: 0, requiresPayment: true });
    expect((await call("/api/chat", { message: "How do I install Widgetron?" })).status).toBe(402);

    const signature = await chain!.sendUsdc({ units: 50_000n });
    const paid = await call("/api/payment", { signature, amount: 0.05, token: "USDC" });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ success: true, queriesGranted: 50 });
    expect(await service!.kill()).toBe(128 + 9); // no graceful shutdown: nothing gets flushed

    service = await service!.restart();
    expect(await (await call("/api/status")).json()).toMatchObject({ remaining: 50, requiresPayment: false });
    const again = await call("/api/payment", { signature, amount: 0.05, token: "USDC" });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ success: false, code: "SIGNATURE_ALREADY_USED" });
    expect(await (await call("/api/status")).json()).toMatchObject({ remaining: 50 });

    const answer = await call("/api/chat", { message: "How do I install Widgetron?" });
    expect(answer.status).toBe(200);
    expect((await answer.json()).rateLimit).toMatchObject({ remaining: 49 });
  }, 60_000);
});
