/**
 * Redis down in the middle of a load, then back, under the real service process with a real
 * redis-server (AOF on) and real USDC transfers on the local chain. While Redis is down the
 * stateful endpoints answer 503 with Retry-After, never 500, and nothing waits past 2 s; the
 * service recovers by itself; every transfer is granted exactly once (none twice, none lost,
 * whatever answer its first submission got); and the credits survive a Redis restart.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { waitFor } from "../support/free-port.ts";
import {
  loadTestEnv,
  type Observed,
  type PreparedPayment,
  preparePayments,
  remainingOf,
  send,
  startMixedLoad,
} from "../support/mixed-load.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { type RedisStack, startRedisStack } from "../support/redis-stack.ts";

const FREE = 200;
const PAYERS = 12;
let stack: RedisStack | undefined;
let payments: PreparedPayment[] = [];
let observed: ReadonlyArray<Observed> = [];
const chatClients = Array.from({ length: 4 }, (_, i) => `10.1.0.${i + 1}`);

const remaining = (client: string) => remainingOf(stack!.service.url, client);

describe.skipIf(!redisServerAvailable())("Redis down mid-load, then back", () => {
  beforeAll(async () => {
    stack = await startRedisStack(loadTestEnv(FREE));
    const { redis, chain, service } = stack;
    payments = await preparePayments(chain, PAYERS);

    // Payments paced over the whole run, so some meet the outage.
    const load = startMixedLoad({ url: service.url, chatClients, payments, workers: 6, paymentEveryMs: 180 });
    await Bun.sleep(600);
    await redis.down();
    await Bun.sleep(1200);
    await redis.up();
    await Bun.sleep(800);
    observed = await load.stop();
  }, 60_000);
  afterAll(() => stack?.stop());

  test("the outage was seen: 503s with Retry-After, and never a 500", () => {
    const statuses = new Set(observed.map((seen) => seen.status));
    expect(statuses.has(503)).toBe(true);
    expect(statuses.has(200)).toBe(true);
    expect(observed.filter((seen) => seen.status >= 500 && seen.status !== 503)).toEqual([]);
    for (const seen of observed.filter((one) => one.status === 503)) {
      expect(seen.retryAfter).toBe("5");
      expect(seen.code).toBe("STORE_UNAVAILABLE");
    }
    expect([...statuses].every((status) => [200, 400, 402, 503].includes(status))).toBe(true);
  });

  test("nothing waited past 2 s, during the outage or after it", () => {
    const slowest = Math.max(...observed.map((seen) => seen.ms));
    expect(slowest).toBeLessThan(2000);
  });

  test("the service recovered by itself: every endpoint answers again", async () => {
    await waitFor(
      async () => (await send(stack!.service.url, "/api/status", "10.9.9.9")).status === 200,
      5000,
      "status",
    );
    expect((await send(stack!.service.url, "/api/payment/info", "10.9.9.9")).status).toBe(200);
    expect(
      (await send(stack!.service.url, "/api/chat", "10.9.9.9", { message: "How do I install Widgetron?" }))
        .status,
    ).toBe(200);
    const ready = await fetch(`${stack!.service.url}/readyz`);
    expect(ready.status).toBe(200);
  });

  test("every transfer is granted exactly once, whatever its first submission was told", async () => {
    for (const payment of payments) {
      const body = { signature: payment.signature, amount: payment.amount, token: "USDC" };
      const first = observed.find((seen) => seen.signature === payment.signature);
      // A 503'd claim may or may not have been applied: submitting it again settles it either way.
      const again = await send(stack!.service.url, "/api/payment", payment.client, body);
      if (first?.status === 200) expect(again.code).toBe("SIGNATURE_ALREADY_USED");
      else expect([200, 400]).toContain(again.status);
      if (again.status === 400) expect(again.code).toBe("SIGNATURE_ALREADY_USED");
      expect(await remaining(payment.client)).toBe(FREE + 10);
    }
    // Another client submitting any of them gets nothing.
    const stolen = await send(stack!.service.url, "/api/payment", "10.2.0.1", {
      signature: payments[0]!.signature,
      amount: 0.01,
      token: "USDC",
    });
    expect(stolen.code).toBe("SIGNATURE_ALREADY_USED");
    expect(await remaining("10.2.0.1")).toBe(FREE);
  });

  test("chats: no client got more answers than its quota, and every answer was charged", async () => {
    for (const client of chatClients) {
      const answered = observed.filter(
        (seen) => seen.kind === "chat" && seen.client === client && seen.status === 200,
      );
      expect(answered.length).toBeLessThanOrEqual(FREE);
      // A chat whose commit met the outage keeps its hold until the lease ends: at most that many fewer.
      expect(await remaining(client)).toBeLessThanOrEqual(FREE - answered.length);
    }
  });

  test("with AOF on, the credits survive a Redis restart", async () => {
    const before = await Promise.all(payments.map((payment) => remaining(payment.client)));
    await stack!.redis.restart();
    await waitFor(
      async () => (await send(stack!.service.url, "/api/status", "10.9.9.9")).status === 200,
      5000,
      "status",
    );
    const after = await Promise.all(payments.map((payment) => remaining(payment.client)));
    expect(after).toEqual(before);
    expect(after.every((value) => value === FREE + 10)).toBe(true);
  }, 20_000);
});
