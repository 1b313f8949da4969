/**
 * What only the Redis store has: durability across reconnects and a redis-server restart
 * (AOF), failing closed when Redis is down or answers oddly, secret-free errors, and the key
 * TTLs of the documented layout.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Cause, Effect, Exit, ManagedRuntime, Redacted } from "effect";
import { Redis } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { CLAIM, RESERVE } from "../../adapters/store-redis/quota-lua.ts";
import { REFERENCE } from "../../adapters/store-redis/reference-lua.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { DAY_MS } from "../../core/time.ts";
import { waitFor } from "../support/free-port.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
const T0 = Date.UTC(2030, 0, 15, 12);
const PASSWORD = "s3cret-Pa55word";

type Runtime = ManagedRuntime.ManagedRuntime<QuotaStore | PaymentStore, unknown>;
const open = (url: string | Redacted.Redacted<string>, keyPrefix: string): Runtime =>
  ManagedRuntime.make(RedisStore.layer({ url, limits: LIMITS, keyPrefix }));
const view = (rt: Runtime, id: string) => rt.runPromise(QuotaStore.use((q) => q.view(id, T0)));
/** The failure of an effect that must fail; its JSON, to search for leaked secrets. */
const failureOf = async (exit: Exit.Exit<unknown, unknown>) => {
  expect(Exit.isFailure(exit)).toBe(true);
  return Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined;
};

describe.skipIf(!redisServerAvailable())("redis store", () => {
  let server: RedisServer;
  let raw: Redis;
  beforeAll(async () => {
    server = await startRedisServer({ password: PASSWORD });
    raw = new Redis(server.url, { lazyConnect: true });
    await raw.connect();
  });
  afterAll(async () => {
    raw.disconnect();
    await server.stop();
  });

  test("credits and used signatures survive reconnecting and a redis-server restart", async () => {
    const first = open(Redacted.make(server.url), "durable:");
    await first.runPromise(PaymentStore.use((p) => p.claim("sig-1", "a", 50, T0)));
    await first.runPromise(QuotaStore.use((q) => q.reserve("a", T0)));
    await first.dispose();
    const second = open(server.url, "durable:");
    expect(await view(second, "a")).toMatchObject({ remaining: 52 });
    await second.dispose();
    await server.restart();
    await raw.connect().catch(() => undefined);
    const third = open(server.url, "durable:");
    expect(await view(third, "a")).toMatchObject({ remaining: 52 });
    expect(await third.runPromise(PaymentStore.use((p) => p.isClaimed("sig-1", T0)))).toBe(true);
    const again = await third.runPromiseExit(PaymentStore.use((p) => p.claim("sig-1", "b", 50, T0)));
    expect((await failureOf(again)) as object).toMatchObject({ _tag: "AlreadyClaimed" });
    await third.dispose();
  });

  test("with Redis down every operation fails closed with StoreUnavailable, then recovers", async () => {
    const rt = open(server.url, "down:");
    await rt.runPromise(PaymentStore.use((p) => p.claim("sig-d", "a", 5, T0)));
    await server.down();
    const operations: ReadonlyArray<Effect.Effect<unknown, unknown, QuotaStore | PaymentStore>> = [
      QuotaStore.use((q) => q.view("a", T0)),
      QuotaStore.use((q) => q.reserve("a", T0)),
      QuotaStore.use((q) => q.commit("a", "h", T0)),
      QuotaStore.use((q) => q.release("a", "h", T0)),
      QuotaStore.use((q) => q.ping),
      PaymentStore.use((p) => p.claim("sig-x", "a", 5, T0)),
      PaymentStore.use((p) => p.isClaimed("sig-d", T0)),
      PaymentStore.use((p) => p.referenceFor("a", T0)),
    ];
    for (const operation of operations) {
      const failure = await failureOf(await rt.runPromiseExit(operation));
      expect(failure).toMatchObject({ _tag: "StoreUnavailable" });
      expect(JSON.stringify(failure)).not.toContain(PASSWORD);
      expect(String(failure)).not.toContain(PASSWORD);
    }
    await server.up();
    await raw.connect().catch(() => undefined);
    await waitFor(
      async () => Exit.isSuccess(await rt.runPromiseExit(QuotaStore.use((q) => q.ping))),
      10_000,
      "reconnect",
    );
    expect(await view(rt, "a")).toMatchObject({ remaining: 8 });
    await rt.dispose();
  });

  test("a layer that cannot connect fails with StoreUnavailable and no secret", async () => {
    const wrong = server.url.replace(encodeURIComponent(PASSWORD), "wrong-Pa55word");
    for (const url of [wrong, `redis://:${PASSWORD}@127.0.0.1:1`]) {
      const rt = open(Redacted.make(url), "x:");
      const failure = await failureOf(await rt.runPromiseExit(QuotaStore.use((q) => q.ping)));
      expect(failure).toMatchObject({ _tag: "StoreUnavailable" });
      expect(JSON.stringify(failure)).not.toContain(PASSWORD);
      expect(JSON.stringify(failure)).not.toContain("wrong-Pa55word");
      await rt.dispose();
    }
  });

  test("a foreign value under our keys is StoreUnavailable, never a grant or a free query", async () => {
    const rt = open(server.url, "odd:");
    await raw.set("odd:quota:holds:a", "not a hash");
    await raw.hset("odd:quota:day:b", "day", "not a number", "free", "x");
    for (const id of ["a", "b"]) {
      const operations: ReadonlyArray<Effect.Effect<unknown, unknown, QuotaStore | PaymentStore>> = [
        QuotaStore.use((q) => q.reserve(id, T0)),
        QuotaStore.use((q) => q.view(id, T0)),
        PaymentStore.use((p) => p.claim(`sig-${id}`, id, 5, T0)),
      ];
      for (const operation of operations) {
        expect(await failureOf(await rt.runPromiseExit(operation))).toMatchObject({
          _tag: "StoreUnavailable",
        });
      }
      expect(await rt.runPromise(PaymentStore.use((p) => p.isClaimed(`sig-${id}`, T0)))).toBe(false);
    }
    await raw.set("odd:sig:garbled", "garbage");
    expect(await rt.runPromise(PaymentStore.use((p) => p.isClaimed("garbled", T0)))).toBe(true);
    const garbled = await rt.runPromiseExit(PaymentStore.use((p) => p.claim("garbled", "c", 5, T0)));
    expect(await failureOf(garbled)).toMatchObject({ _tag: "AlreadyClaimed" });
    await rt.dispose();
  });

  test("keys follow the documented layout and TTLs", async () => {
    const rt = open(server.url, "ttl:");
    const endOfDay = Date.UTC(2030, 0, 16) - T0;
    await rt.runPromise(
      QuotaStore.use((q) => Effect.flatMap(q.reserve("a", T0), ({ hold }) => q.commit("a", hold.id, T0))),
    );
    await rt.runPromise(QuotaStore.use((q) => q.reserve("a", T0)));
    await rt.runPromise(PaymentStore.use((p) => p.claim("sig-t", "a", 5, T0)));
    const reference = await rt.runPromise(PaymentStore.use((p) => p.referenceFor("a", T0)));
    const ttl = (key: string) => raw.pttl(key);
    const near = (value: number, expected: number) => expect(Math.abs(value - expected)).toBeLessThan(60_000);
    near(await ttl("ttl:quota:day:a"), endOfDay + 3_600_000);
    near(await ttl("ttl:quota:holds:a"), 30_000 + 3_600_000);
    expect(await ttl("ttl:quota:credits:a")).toBe(-1);
    expect(await raw.get("ttl:quota:credits:a")).toBe("5");
    near(await ttl("ttl:sig:sig-t"), 30 * DAY_MS);
    near(await ttl("ttl:ref:id:a"), 90 * DAY_MS);
    near(await ttl(`ttl:ref:of:${reference}`), 90 * DAY_MS);
    expect(await raw.get(`ttl:ref:of:${reference}`)).toBe("a");
    // Spending the last credit deletes the key: nothing of an idle identity stays forever.
    await rt.runPromise(PaymentStore.use((p) => p.claim("sig-t2", "z", 1, T0)));
    for (let i = 0; i < 4; i++)
      await rt.runPromise(
        QuotaStore.use((q) => Effect.flatMap(q.reserve("z", T0), ({ hold }) => q.commit("z", hold.id, T0))),
      );
    expect(await raw.exists("ttl:quota:credits:z", "ttl:quota:holds:z")).toBe(0);
    near(await ttl("ttl:quota:day:z"), endOfDay + 3_600_000);
    await rt.dispose();
  });

  test("a resent script (reply lost, sent again) neither grants nor holds twice", async () => {
    const keys = ["re:quota:day:a", "re:quota:credits:a", "re:quota:holds:a"];
    const limits = [T0, LIMITS.freePerDay, LIMITS.paidDailyCap, LIMITS.holdTtlMs];
    const claim = (claimId: string) =>
      raw.eval(CLAIM, 4, ...keys, "re:sig:s", ...limits, "a", 5, 30 * DAY_MS, claimId);
    expect(await claim("claim-1")).toEqual([0, 8, Date.UTC(2030, 0, 16), 0]);
    expect(await claim("claim-1")).toEqual([0, 8, Date.UTC(2030, 0, 16), 0]);
    expect(await claim("claim-2")).toEqual([1]);
    expect(await raw.get("re:quota:credits:a")).toBe("5");
    const first = await raw.eval(RESERVE, 3, ...keys, ...limits, "hold-1");
    expect(await raw.eval(RESERVE, 3, ...keys, ...limits, "hold-1")).toEqual(first);
    expect(await raw.hlen("re:quota:holds:a")).toBe(1);
  });

  test("a reference already owned by another identity is never handed out twice", async () => {
    const ask = (identity: string, candidate: string) =>
      raw.eval(
        REFERENCE,
        2,
        `rf:ref:id:${identity}`,
        `rf:ref:of:${candidate}`,
        candidate,
        identity,
        60_000,
        "rf:ref:of:",
      );
    expect(await ask("a", "CANDIDATE1")).toBe("CANDIDATE1");
    expect(await ask("b", "CANDIDATE1")).toBeNull();
    expect(await raw.exists("rf:ref:id:b")).toBe(0);
    expect(await ask("b", "CANDIDATE2")).toBe("CANDIDATE2");
    expect(await ask("a", "CANDIDATE3")).toBe("CANDIDATE1");
    expect(await raw.get("rf:ref:of:CANDIDATE1")).toBe("a");
  });
});
