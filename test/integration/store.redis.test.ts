/**
 * What only the Redis store has: durability across reconnects and a redis-server restart
 * (AOF), failing closed when Redis is down or answers oddly, secret-free errors, the view as
 * one plain read, and the key layout and TTLs (adapters/store-redis/keys.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import type { Redis } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { MARK_USED } from "../../adapters/store-redis/payments/signature-lua.ts";
import { CLAIM, RESERVE } from "../../adapters/store-redis/quota/quota-lua.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { DAY_MS } from "../../core/time.ts";
import { waitFor } from "../support/free-port.ts";
import {
  type RedisServer,
  rawClient,
  redisServerAvailable,
  startRedisServer,
} from "../support/redis-server.ts";
import { STORE_LIMITS, type StoreRuntime, T0 } from "../support/store-fixtures.ts";

const PASSWORD = "s3cret-Pa55word";

type Runtime = StoreRuntime;
const open = (url: string | Redacted.Redacted<string>, keyPrefix: string): Runtime =>
  ManagedRuntime.make(RedisStore.layer({ url, limits: STORE_LIMITS, keyPrefix }));
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
    raw = rawClient(server.url, { lazyConnect: true });
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
      PaymentStore.use((p) => p.legacyReference("a")),
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
    const valid = { day: String(Math.floor(T0 / DAY_MS)), free: "1", spent: "0", credits: "2" };
    const hold = `f|${valid.day}|${T0 + 10_000}`;
    const corrupt: Record<string, Record<string, string>> = {
      credits: { ...valid, credits: "not a number" },
      fraction: { ...valid, credits: "1.5" },
      negative: { ...valid, free: "-1" },
      huge: { ...valid, credits: "1234567890123456" },
      hold: { ...valid, "h:x": "f|1|" },
      bucket: { ...valid, "h:x": `q|${valid.day}|${T0 + 10_000}` },
      lapsed: { ...valid, "h:x": "f|1234567890123456|1" },
      unknown: { ...valid, "h:x": hold, extra: "1" },
      // A literal `{ __proto__: ... }` would set the prototype, not a field: defined as a field.
      proto: Object.defineProperty({ ...valid }, "__proto__", { value: "1", enumerable: true }),
      missing: { credits: "2", "h:x": hold },
      partial: { day: valid.day, free: "1", spent: "0" },
    };
    await raw.set("odd:quota:string", "not a hash");
    for (const [id, fields] of Object.entries(corrupt))
      await raw.hset(`odd:quota:${id}`, ...Object.entries(fields).flat());
    expect(Object.keys(await raw.hgetall("odd:quota:proto"))).toContain("__proto__");
    for (const id of ["string", ...Object.keys(corrupt)]) {
      const before =
        id === "string" ? await raw.get("odd:quota:string") : await raw.hgetall(`odd:quota:${id}`);
      const operations: ReadonlyArray<Effect.Effect<unknown, unknown, QuotaStore | PaymentStore>> = [
        QuotaStore.use((q) => q.view(id, T0)),
        QuotaStore.use((q) => q.reserve(id, T0)),
        QuotaStore.use((q) => q.commit(id, "x", T0)),
        QuotaStore.use((q) => q.release(id, "x", T0)),
        PaymentStore.use((p) => p.claim(`sig-${id}`, id, 5, T0)),
      ];
      for (const operation of operations) {
        const exit = await rt.runPromiseExit(operation);
        expect(Exit.isFailure(exit), id).toBe(true);
        expect(await failureOf(exit), id).toMatchObject({
          _tag: "StoreUnavailable",
          reason: id === "string" ? "redis replied WRONGTYPE" : "corrupt quota state",
        });
      }
      // Refused before any write: the state, its TTL and the signature are untouched.
      const after =
        id === "string" ? await raw.get("odd:quota:string") : await raw.hgetall(`odd:quota:${id}`);
      expect(after, id).toEqual(before);
      expect(await raw.pttl(`odd:quota:${id}`), id).toBe(-1);
      expect(await rt.runPromise(PaymentStore.use((p) => p.isClaimed(`sig-${id}`, T0))), id).toBe(false);
    }
    // The same fields, well formed, are a valid state.
    await raw.hset("odd:quota:fine", { ...valid, "h:x": hold });
    expect(await view(rt, "fine")).toMatchObject({ remaining: 3 });
    await raw.set("odd:sig:garbled", "garbage");
    expect(await rt.runPromise(PaymentStore.use((p) => p.isClaimed("garbled", T0)))).toBe(true);
    const garbled = await rt.runPromiseExit(PaymentStore.use((p) => p.claim("garbled", "c", 5, T0)));
    expect(await failureOf(garbled)).toMatchObject({ _tag: "AlreadyClaimed" });
    await rt.dispose();
  });

  test("the view is one HGETALL and nothing else: no script, no write", async () => {
    const rt = open(server.url, "one:");
    await rt.runPromise(PaymentStore.use((p) => p.claim("sig-o", "a", 5, T0)));
    await rt.runPromise(QuotaStore.use((q) => q.reserve("a", T0)));
    const stored = await raw.hgetall("one:quota:a");
    await raw.config("RESETSTAT");
    // A later day and a lapsed hold: the view derives both without writing them back.
    expect(await rt.runPromise(QuotaStore.use((q) => q.view("a", T0 + DAY_MS)))).toEqual({
      remaining: 3 + 5,
      resetAt: Date.UTC(2030, 0, 17),
      requiresPayment: false,
      free: 3,
      paid: 5,
    });
    expect(await view(rt, "nobody")).toEqual({
      remaining: 3,
      resetAt: Date.UTC(2030, 0, 16),
      requiresPayment: false,
      free: 3,
      paid: 0,
    });
    const stats = String(await raw.info("commandstats"));
    const commands = [...stats.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)].map(
      ([, name, calls]) => `${name}=${calls}`,
    );
    // Besides the raw client's RESETSTAT (its INFO counts once it has answered).
    expect(commands.sort()).toEqual(["config|resetstat=1", "hgetall=2"]);
    expect(await raw.hgetall("one:quota:a")).toEqual(stored);
    await rt.dispose();
  });

  test("one hash per identity, with the documented fields and TTLs", async () => {
    const rt = open(server.url, "ttl:");
    const endOfDay = Date.UTC(2030, 0, 16) - T0;
    const day = String(Math.floor(T0 / DAY_MS));
    const spend = (id: string, now = T0) =>
      rt.runPromise(
        QuotaStore.use((q) => Effect.flatMap(q.reserve(id, now), ({ hold }) => q.commit(id, hold.id, now))),
      );
    const ttl = (key: string) => raw.pttl(key);
    const near = (value: number, expected: number) => expect(Math.abs(value - expected)).toBeLessThan(60_000);

    // Paid credits: no expiry, whatever else the hash holds.
    await spend("a");
    const { hold } = await rt.runPromise(QuotaStore.use((q) => q.reserve("a", T0)));
    await rt.runPromise(PaymentStore.use((p) => p.claim("sig-t", "a", 5, T0)));
    expect(await raw.hgetall("ttl:quota:a")).toEqual({
      day,
      free: "1",
      spent: "0",
      credits: "5",
      [`h:${hold.id}`]: `f|${day}|${T0 + 30_000}`,
    });
    expect(await ttl("ttl:quota:a")).toBe(-1);

    // No credits: the end of the counters' UTC day + 1 h, for counters and for open holds alike.
    await spend("n");
    near(await ttl("ttl:quota:n"), endOfDay + 3_600_000);
    await rt.runPromise(QuotaStore.use((q) => q.reserve("h", T0)));
    near(await ttl("ttl:quota:h"), endOfDay + 3_600_000);
    // Credits bought later lift the expiry; spending the last one sets it again.
    await rt.runPromise(PaymentStore.use((p) => p.claim("sig-n", "n", 1, T0)));
    expect(await ttl("ttl:quota:n")).toBe(-1);
    for (let i = 0; i < 3; i++) await spend("n");
    expect(await raw.hgetall("ttl:quota:n")).toEqual({ day, free: "3", spent: "1", credits: "0" });
    near(await ttl("ttl:quota:n"), endOfDay + 3_600_000);

    // Nothing left to remember: the key is deleted.
    const released = await rt.runPromise(QuotaStore.use((q) => q.reserve("e", T0)));
    await rt.runPromise(QuotaStore.use((q) => q.release("e", released.hold.id, T0)));
    expect(await raw.exists("ttl:quota:e")).toBe(0);
    // The next day, any write finds only yesterday's counters and a lapsed hold: deleted too.
    await rt.runPromise(QuotaStore.use((q) => q.release("h", "none", T0 + DAY_MS)));
    await rt.runPromise(QuotaStore.use((q) => q.commit("n", "none", T0 + DAY_MS)));
    expect(await raw.exists("ttl:quota:h", "ttl:quota:n")).toBe(0);

    near(await ttl("ttl:sig:sig-t"), 30 * DAY_MS);
    expect((await raw.keys("ttl:quota:*")).sort()).toEqual(["ttl:quota:a"]);
    await rt.dispose();
  });

  test("a resent script (reply lost, sent again) neither grants nor holds twice", async () => {
    const key = "re:quota:a";
    const limits = [T0, STORE_LIMITS.freePerDay, STORE_LIMITS.paidDailyCap, STORE_LIMITS.holdTtlMs];
    const claim = (claimId: string) =>
      raw.eval(CLAIM, 2, key, "re:sig:s", ...limits, "a", 5, 30 * DAY_MS, claimId);
    expect(await claim("claim-1")).toEqual([0, 8, Date.UTC(2030, 0, 16), 0, 3, 5]);
    expect(await claim("claim-1")).toEqual([0, 8, Date.UTC(2030, 0, 16), 0, 3, 5]);
    expect(await claim("claim-2")).toEqual([1]);
    expect(await raw.hget(key, "credits")).toBe("5");
    const first = await raw.eval(RESERVE, 1, key, ...limits, "hold-1");
    expect(await raw.eval(RESERVE, 1, key, ...limits, "hold-1")).toEqual(first);
    expect(Object.keys(await raw.hgetall(key)).filter((field) => field.startsWith("h:"))).toEqual([
      "h:hold-1",
    ]);
  });

  test("markUsed writes the signature key alone, with its 30-day memory: no quota key is kept", async () => {
    const rt = open(server.url, "mark:");
    await rt.runPromise(PaymentStore.use((p) => p.markUsed("sig-f", "x402-facilitator:sig-f", T0)));
    // Besides the store's own seal key, written once when the layer starts (request-seal.ts).
    expect((await raw.keys("mark:*")).sort()).toEqual(["mark:seal-key", "mark:sig:sig-f"]);
    expect(await raw.get("mark:sig:sig-f")).toMatch(
      new RegExp(`^${T0}\\|[^|]+\\|0\\|x402-facilitator:sig-f$`),
    );
    expect(Math.abs((await raw.pttl("mark:sig:sig-f")) - 30 * DAY_MS)).toBeLessThan(60_000);
    // The facilitator's settlements once credited a query each to an identity of their own: a
    // quota hash with credits, never expiring. None is written now, refused or not.
    await rt.runPromise(
      Effect.flip(PaymentStore.use((p) => p.markUsed("sig-f", "x402-facilitator:sig-f", T0))),
    );
    expect(await raw.keys("mark:quota:*")).toEqual([]);
    await rt.dispose();
  });

  test("a resent markUsed (reply lost, sent again) is its success; another call is refused", async () => {
    const mark = (claimId: string) => raw.eval(MARK_USED, 1, "rm:sig:s", T0, 30 * DAY_MS, claimId, "settler");
    expect(await mark("mark-1")).toEqual([0]);
    expect(await mark("mark-1")).toEqual([0]);
    expect(await mark("mark-2")).toEqual([1]);
    expect(await raw.get("rm:sig:s")).toBe(`${T0}|mark-1|0|settler`);
  });

  test("a memo reference stored before references were sealed is read, and its key left as it was", async () => {
    const rt = open(server.url, "rf:");
    await raw.set("rf:ref:id:a", "Rk3nTz8Qw2pLx9Vb", "PX", 60_000);
    await raw.set("rf:ref:of:Rk3nTz8Qw2pLx9Vb", "a", "PX", 60_000);
    const legacy = (identity: string) => rt.runPromise(PaymentStore.use((p) => p.legacyReference(identity)));
    expect(await legacy("a")).toBe("Rk3nTz8Qw2pLx9Vb");
    expect(await legacy("b")).toBeUndefined();
    // Read only: the key keeps the expiry the old code gave it, and nothing is written for "b".
    expect(await raw.pttl("rf:ref:id:a")).toBeLessThanOrEqual(60_000);
    expect((await raw.keys("rf:*")).sort()).toEqual([
      "rf:ref:id:a",
      "rf:ref:of:Rk3nTz8Qw2pLx9Vb",
      "rf:seal-key",
    ]);
    await rt.dispose();
  });
});
