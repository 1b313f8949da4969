/**
 * SIGKILL of the real service process during a load of payments and chats (real redis-server,
 * real USDC transfers on the local chain; the language model is a loopback Groq that hangs, so
 * chats are in flight, holding reservations, when the process dies). After the restart every
 * acknowledged grant is there, no signature is usable twice and every transfer is granted
 * exactly once, and the reservations the dead process held lapse at the end of their lease.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { HOLD_TTL_MS } from "../../src/runtime/app-layer.ts";
import { type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import {
  loadTestEnv,
  type Observed,
  type PreparedPayment,
  preparePayments,
  remainingOf,
  send,
  startMixedLoad,
} from "../support/mixed-load.ts";
import { rawClient, redisServerAvailable } from "../support/redis-server.ts";
import { type RedisStack, startRedisStack } from "../support/redis-stack.ts";
import type { ServiceProcess } from "../support/service-process.ts";

const FREE = 50;
const PAYERS = 10;
let stack: RedisStack | undefined;
let groq: FakeGroq | undefined;
/** The service now: the one started, then the one restarted after the kill. */
let service: ServiceProcess | undefined;
let payments: PreparedPayment[] = [];
let observed: ReadonlyArray<Observed> = [];
let killedAt = 0;
const chatClients = Array.from({ length: 3 }, (_, i) => `10.1.0.${i + 1}`);

const remaining = (client: string) => remainingOf(service!.url, client);

describe.skipIf(!redisServerAvailable())("SIGKILL during payments and chats", () => {
  beforeAll(async () => {
    groq = await startFakeGroq();
    groq.script(...Array.from({ length: 500 }, () => ({ kind: "hang" }) as const));
    stack = await startRedisStack({
      ...loadTestEnv(FREE),
      LLM_API_KEY: groq.apiKey,
      LLM_BASE_URL: groq.baseUrl,
    });
    service = stack.service;
    payments = await preparePayments(stack.chain, PAYERS);
    const load = startMixedLoad({ url: service.url, chatClients, payments, workers: 8, paymentEveryMs: 80 });
    await Bun.sleep(450);
    killedAt = Date.now();
    expect(await service.kill()).toBe(128 + 9);
    observed = await load.stop();
    groq.reset(); // the model answers again after the restart
    service = await service.restart();
  }, 60_000);
  afterAll(async () => {
    await service?.dispose();
    await stack?.stop();
    await groq?.stop();
  });

  test("the kill happened mid-load: some payments acknowledged, some requests cut off", () => {
    expect(observed.some((seen) => seen.kind === "payment" && seen.status === 200)).toBe(true);
    expect(observed.some((seen) => seen.status === 0)).toBe(true);
  });

  test("every acknowledged grant is there after the restart", async () => {
    const acknowledged = observed.filter((seen) => seen.kind === "payment" && seen.status === 200);
    for (const seen of acknowledged) expect(await remaining(seen.client)).toBe(FREE + 10);
  });

  test("no signature is usable twice, and every transfer ends granted exactly once", async () => {
    for (const payment of payments) {
      const body = { signature: payment.signature, amount: payment.amount, token: "USDC" };
      const acknowledged = observed.some(
        (seen) => seen.signature === payment.signature && seen.status === 200,
      );
      const again = await send(service!.url, "/api/payment", payment.client, body);
      if (acknowledged) expect(again.code).toBe("SIGNATURE_ALREADY_USED");
      else expect(again.status === 200 || again.code === "SIGNATURE_ALREADY_USED").toBe(true);
      expect((await send(service!.url, "/api/payment", payment.client, body)).code).toBe(
        "SIGNATURE_ALREADY_USED",
      );
      expect((await send(service!.url, "/api/payment", "10.2.0.1", body)).code).toBe(
        "SIGNATURE_ALREADY_USED",
      );
      expect(await remaining(payment.client)).toBe(FREE + 10);
    }
    expect(await remaining("10.2.0.1")).toBe(FREE);
  });

  test("the dead process's reservations lapse at the end of their lease, never later", async () => {
    const raw = rawClient(stack!.redis.url);
    const store = RedisStore.layer({
      url: stack!.redis.url,
      limits: { freePerDay: FREE, paidDailyCap: 1000, holdTtlMs: HOLD_TTL_MS },
    });
    try {
      let holds = 0;
      for (const client of chatClients) {
        const hash = await raw.hgetall(`docs-chat:quota:${client}`);
        const expiries = Object.entries(hash)
          .filter(([field]) => field.startsWith("h:"))
          .map(([, value]) => Number(value.split("|")[2]));
        holds += expiries.length;
        for (const expiresAt of expiries) expect(expiresAt).toBeLessThanOrEqual(killedAt + HOLD_TTL_MS);
        const committed = Number(hash.free ?? 0);
        const viewAt = (now: number) =>
          Effect.runPromise(
            Effect.flatMap(QuotaStore, (quota) => quota.view(client, now)).pipe(Effect.provide(store)),
          );
        // Once the lease is over only committed answers count.
        const afterLease = await viewAt(killedAt + HOLD_TTL_MS + 1);
        expect(afterLease.remaining).toBe(FREE - committed);
        expect((await viewAt(Date.now())).remaining).toBe(FREE - committed - expiries.length);
      }
      expect(holds).toBeGreaterThan(0); // chats were in flight when the process died
    } finally {
      raw.disconnect();
    }
  });
});
