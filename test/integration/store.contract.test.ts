/**
 * One contract for every QuotaStore + PaymentStore: the memory store and the Redis store
 * (a real redis-server) must behave identically, including under concurrency. For Redis the
 * races run across TWO layers (two connections), as two service instances would.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Result from "effect/Result";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { memoReference } from "../../core/payments/memo-reference.ts";
import { MEMO_PREFIX, siteMemoPrefix } from "../../core/payments/payment-settings.ts";
import { SIGNATURE_MEMORY_MS } from "../../core/payments/signature-ledger.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { RequestSeal } from "../../core/ports/request-seal.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import { DAY_MS } from "../../core/time.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
const T0 = Date.UTC(2030, 0, 15, 12);
const MIDNIGHT = Date.UTC(2030, 0, 16);
const BASE58_16 = /^[1-9A-HJ-NP-Za-km-z]{16}$/;

type Stores = QuotaStore | PaymentStore | WalletCredits | RequestSeal;

/** Two layers made with the same namespace share state when the store is shared (Redis). */
type MakeLayer = (namespace: string) => Layer.Layer<Stores, StoreUnavailable>;

/** "ok", the error's tag, or "defect". */
const outcomeOf = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>): string => {
  if (Exit.isSuccess(exit)) return "ok";
  const error = Cause.findError(exit.cause);
  return Result.isSuccess(error) ? error.success._tag : "defect";
};

const client = (runtime: ManagedRuntime.ManagedRuntime<Stores, StoreUnavailable>) => {
  const run = <A, E>(effect: Effect.Effect<A, E, Stores>) => runtime.runPromise(effect);
  const outcome = async <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E, Stores>) =>
    outcomeOf(await runtime.runPromiseExit(effect));
  return {
    // The status read of a client without a payer link (WalletCredits.viewAsPayer) is its view.
    view: async (id: string, now: number) => {
      const view = await run(QuotaStore.use((q) => q.view(id, now)));
      expect(await run(WalletCredits.use((w) => w.viewAsPayer(id, now)))).toEqual(view);
      return view;
    },
    reserve: (id: string, now: number) => run(QuotaStore.use((q) => q.reserve(id, now))),
    tryReserve: (id: string, now: number) => outcome(QuotaStore.use((q) => q.reserve(id, now))),
    reserveError: (id: string, now: number) => run(Effect.flip(QuotaStore.use((q) => q.reserve(id, now)))),
    commit: (id: string, hold: string, now: number) => run(QuotaStore.use((q) => q.commit(id, hold, now))),
    release: (id: string, hold: string, now: number) => run(QuotaStore.use((q) => q.release(id, hold, now))),
    claim: (sig: string, id: string, queries: number, now: number) =>
      run(PaymentStore.use((p) => p.claim(sig, id, queries, now))),
    tryClaim: (sig: string, id: string, queries: number, now: number) =>
      outcome(PaymentStore.use((p) => p.claim(sig, id, queries, now))),
    isClaimed: (sig: string, now: number) => run(PaymentStore.use((p) => p.isClaimed(sig, now))),
    tryMarkUsed: (sig: string, usedBy: string, now: number) =>
      outcome(PaymentStore.use((p) => p.markUsed(sig, usedBy, now))),
    /** The memo reference the store's seal key gives `id` on the site of `prefix`. */
    reference: (prefix: string, id: string) =>
      run(RequestSeal.use((seal) => Effect.succeed(memoReference(seal.mac, prefix, id)))),
    legacyReference: (id: string) => run(PaymentStore.use((p) => p.legacyReference(id))),
    ping: () => outcome(QuotaStore.use((q) => q.ping)),
  };
};
type Client = ReturnType<typeof client>;

/** Runs the whole contract against stores built by `makeLayer`. */
const storeContract = (name: string, makeLayer: MakeLayer, options: { readonly shared: boolean }) =>
  describe(`${name} store contract`, () => {
    const runtimes: Array<ManagedRuntime.ManagedRuntime<Stores, StoreUnavailable>> = [];
    afterAll(() => Promise.all(runtimes.map((runtime) => runtime.dispose())));
    /** A fresh empty store as two instances (the same instance for an unshared store). */
    const open = (): [Client, Client] => {
      const namespace = `t-${crypto.randomUUID()}:`;
      const first = ManagedRuntime.make(makeLayer(namespace));
      const second = options.shared ? ManagedRuntime.make(makeLayer(namespace)) : first;
      runtimes.push(first, second);
      return [client(first), client(second)];
    };
    const spend = async (store: Client, id: string, count: number, now: number) => {
      for (let i = 0; i < count; i++) await store.commit(id, (await store.reserve(id, now)).hold.id, now);
    };

    test("a fresh identity sees its free queries and the next UTC midnight", async () => {
      const [store] = open();
      expect(await store.view("1.2.3.4", T0)).toEqual({
        remaining: 3,
        resetAt: MIDNIGHT,
        requiresPayment: false,
        free: 3,
        paid: 0,
      });
      expect(await store.ping()).toBe("ok");
    });

    test("free queries go first, then paid ones; exhausted means QuotaExhausted", async () => {
      const [store] = open();
      for (const left of [2, 1, 0]) {
        const { hold, view } = await store.reserve("a", T0);
        expect(hold).toMatchObject({ bucket: "free", day: Math.floor(T0 / DAY_MS), expiresAt: T0 + 30_000 });
        expect(view.remaining).toBe(left);
        await store.commit("a", hold.id, T0);
      }
      expect(await store.reserveError("a", T0)).toMatchObject({ _tag: "QuotaExhausted", resetAt: MIDNIGHT });
      expect(await store.view("a", T0)).toEqual({
        remaining: 0,
        resetAt: MIDNIGHT,
        requiresPayment: true,
        free: 0,
        paid: 0,
      });
      expect(await store.claim("sig-a", "a", 2, T0)).toMatchObject({ remaining: 2, free: 0, paid: 2 });
      const paid = await store.reserve("a", T0);
      expect(paid.hold.bucket).toBe("paid");
      expect((await store.commit("a", paid.hold.id, T0)).remaining).toBe(1);
      await spend(store, "a", 1, T0);
      expect(await store.tryReserve("a", T0)).toBe("QuotaExhausted");
      expect(await store.view("b", T0)).toMatchObject({ remaining: 3 });
    });

    test("open holds count: three uncommitted holds exhaust three free queries", async () => {
      const [store] = open();
      for (let i = 0; i < 3; i++) await store.reserve("a", T0);
      expect(await store.tryReserve("a", T0)).toBe("QuotaExhausted");
      expect(await store.view("a", T0)).toMatchObject({ remaining: 0, requiresPayment: true });
    });

    test("at most 1000 paid queries a day: then PaidDailyCapReached, and the rest waits", async () => {
      const [store] = open();
      await store.claim("s1", "a", 1000, T0);
      await store.claim("s2", "a", 1000, T0);
      await spend(store, "a", 3 + 1000, T0);
      expect(await store.reserveError("a", T0)).toMatchObject({
        _tag: "PaidDailyCapReached",
        resetAt: MIDNIGHT,
      });
      expect(await store.view("a", T0)).toEqual({
        remaining: 0,
        resetAt: MIDNIGHT,
        requiresPayment: false,
        free: 0,
        paid: 0,
      });
      expect(await store.view("a", MIDNIGHT)).toMatchObject({
        remaining: 1003,
        requiresPayment: false,
        free: 3,
        paid: 1000,
      });
    });

    test("the day rolls over at 00:00 UTC: free resets, paid credits stay", async () => {
      const [store] = open();
      await store.claim("s", "a", 5, T0);
      await spend(store, "a", 5, T0);
      expect(await store.view("a", MIDNIGHT - 1)).toMatchObject({ remaining: 3 });
      expect(await store.view("a", MIDNIGHT)).toEqual({
        remaining: 6,
        resetAt: MIDNIGHT + DAY_MS,
        requiresPayment: false,
        free: 3,
        paid: 3,
      });
      expect((await store.reserve("a", MIDNIGHT)).hold.bucket).toBe("free");
      expect(await store.view("a", MIDNIGHT + 30 * DAY_MS)).toMatchObject({ remaining: 6 });
    });

    test("a hold taken before midnight and settled after it counts against neither day's free queries", async () => {
      const [store] = open();
      const late = await store.reserve("a", MIDNIGHT - 1000);
      expect(late.hold.day).toBe(Math.floor(T0 / DAY_MS));
      expect(await store.view("a", MIDNIGHT)).toMatchObject({ remaining: 3 });
      expect(await store.commit("a", late.hold.id, MIDNIGHT + 1000)).toMatchObject({ remaining: 3 });
      expect(await store.view("a", MIDNIGHT + 1000)).toMatchObject({ remaining: 3 });
    });

    test("an uncommitted hold lapses after its lease and costs nothing", async () => {
      const [store] = open();
      const holds = [
        await store.reserve("a", T0),
        await store.reserve("a", T0),
        await store.reserve("a", T0),
      ];
      expect(await store.view("a", T0 + 29_999)).toMatchObject({ remaining: 0 });
      expect(await store.view("a", T0 + 30_000)).toMatchObject({ remaining: 3 });
      // A commit after the lease has lapsed charges nothing.
      expect(await store.commit("a", holds[0]!.hold.id, T0 + 30_000)).toMatchObject({ remaining: 3 });
    });

    test("commit and release are idempotent and ignore unknown holds", async () => {
      const [store] = open();
      const first = await store.reserve("a", T0);
      expect((await store.commit("a", first.hold.id, T0)).remaining).toBe(2);
      expect((await store.commit("a", first.hold.id, T0)).remaining).toBe(2);
      expect((await store.release("a", first.hold.id, T0)).remaining).toBe(2);
      const second = await store.reserve("a", T0);
      expect((await store.release("a", second.hold.id, T0)).remaining).toBe(2);
      expect((await store.release("a", second.hold.id, T0)).remaining).toBe(2);
      expect((await store.commit("a", second.hold.id, T0)).remaining).toBe(2);
      expect((await store.commit("a", "no-such-hold", T0)).remaining).toBe(2);
      expect((await store.commit("b", first.hold.id, T0)).remaining).toBe(3);
      await store.claim("s", "c", 1, T0);
      const paid = [await store.reserve("c", T0), await store.reserve("c", T0), await store.reserve("c", T0)];
      const last = await store.reserve("c", T0);
      expect(last.hold.bucket).toBe("paid");
      expect((await store.release("c", last.hold.id, T0)).remaining).toBe(1);
      for (const { hold } of paid) await store.commit("c", hold.id, T0);
      expect(await store.view("c", T0)).toMatchObject({ remaining: 1, requiresPayment: false });
    });

    test("a signature grants once; a second claim is AlreadyClaimed and grants nothing", async () => {
      const [store] = open();
      expect(await store.isClaimed("sig", T0)).toBe(false);
      expect(await store.claim("sig", "a", 10, T0)).toEqual({
        remaining: 13,
        resetAt: MIDNIGHT,
        requiresPayment: false,
        free: 3,
        paid: 10,
      });
      expect(await store.isClaimed("sig", T0)).toBe(true);
      expect(await store.isClaimed("other", T0)).toBe(false);
      expect(await store.tryClaim("sig", "a", 10, T0)).toBe("AlreadyClaimed");
      expect(await store.tryClaim("sig", "b", 10, T0 + 1000)).toBe("AlreadyClaimed");
      expect(await store.view("a", T0)).toMatchObject({ remaining: 13 });
      expect(await store.view("b", T0)).toMatchObject({ remaining: 3 });
      expect(await store.isClaimed("sig", T0 + SIGNATURE_MEMORY_MS - 1)).toBe(true);
      expect(await store.isClaimed("sig", T0 + SIGNATURE_MEMORY_MS)).toBe(false);
      // Forgotten after its memory (verification refuses such old transactions anyway).
      expect(await store.tryClaim("sig", "b", 10, T0 + SIGNATURE_MEMORY_MS - 1)).toBe("AlreadyClaimed");
      expect(await store.tryClaim("sig", "b", 10, T0 + SIGNATURE_MEMORY_MS)).toBe("ok");
    });

    test("markUsed: the signature is used and no one is credited; refused exactly as a claim is", async () => {
      const [store, peer] = open();
      const settlement = "x402-facilitator:sig-m";
      expect(await store.tryMarkUsed("sig-m", settlement, T0)).toBe("ok");
      expect(await peer.isClaimed("sig-m", T0)).toBe(true);
      expect(await peer.tryMarkUsed("sig-m", settlement, T0)).toBe("AlreadyClaimed");
      expect(await peer.tryClaim("sig-m", "a", 5, T0 + 1000)).toBe("AlreadyClaimed");
      expect(await peer.view(settlement, T0)).toEqual(await peer.view("never-seen", T0));
      expect(await peer.view("a", T0)).toMatchObject({ remaining: 3 });
      // A signature a claim used cannot be marked, and the credits it gave stay.
      await store.claim("sig-c", "b", 4, T0);
      expect(await peer.tryMarkUsed("sig-c", settlement, T0)).toBe("AlreadyClaimed");
      expect(await peer.view("b", T0)).toMatchObject({ remaining: 7 });
      // Remembered for the signature memory, like any used signature, and no longer.
      expect(await peer.tryMarkUsed("sig-m", settlement, T0 + SIGNATURE_MEMORY_MS - 1)).toBe(
        "AlreadyClaimed",
      );
      expect(await peer.isClaimed("sig-m", T0 + SIGNATURE_MEMORY_MS)).toBe(false);
      expect(await peer.tryMarkUsed("sig-m", settlement, T0 + SIGNATURE_MEMORY_MS)).toBe("ok");
    });

    test("grants that could never come from a payment are defects, not credits", async () => {
      const [store] = open();
      for (const queries of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(await store.tryClaim(`bad-${queries}`, "a", queries, T0)).toBe("defect");
        expect(await store.isClaimed(`bad-${queries}`, T0)).toBe(false);
      }
      expect(await store.view("a", T0)).toMatchObject({ remaining: 3 });
    });

    test("identities are isolated, whatever characters they contain", async () => {
      const [store] = open();
      const ids = ["", "a", "a:b", "quota:credits:a", "2001:db8::/64", "ü|x", "a b"];
      for (const id of ids) await store.claim(`sig-${id}`, id, 1 + ids.indexOf(id), T0);
      for (const id of ids) expect((await store.view(id, T0)).remaining).toBe(3 + 1 + ids.indexOf(id));
    });

    test("a memo reference is sealed: the same on every instance, one per identity and site, nothing kept", async () => {
      const [store, peer] = open();
      const refs = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.reference(MEMO_PREFIX, `id-${i}`)),
      );
      for (const ref of refs) expect(ref).toMatch(BASE58_16);
      expect(new Set(refs).size).toBe(50);
      expect(await peer.reference(MEMO_PREFIX, "id-7")).toBe(refs[7]!);
      expect(await store.reference(siteMemoPrefix("alpha"), "id-7")).not.toBe(refs[7]!);
      // Asking wrote nothing: no reference stored under the old layout either.
      expect(await store.legacyReference("id-7")).toBeUndefined();
      expect(await peer.legacyReference("id-7")).toBeUndefined();
    });

    test("50 parallel reserves on 3 free queries: exactly 3 succeed", async () => {
      const [store, peer] = open();
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store : peer).tryReserve("a", T0)),
      );
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(3);
      expect(outcomes.filter((o) => o === "QuotaExhausted")).toHaveLength(47);
    });

    test("100 parallel claims of one signature: exactly one grant", async () => {
      const [store, peer] = open();
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? store : peer).tryClaim("sig", `id-${i}`, 7, T0)),
      );
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "AlreadyClaimed")).toHaveLength(99);
      const views = await Promise.all(Array.from({ length: 100 }, (_, i) => peer.view(`id-${i}`, T0)));
      expect(views.map((v) => v.remaining).sort((x, y) => y - x)).toEqual([10, ...Array(99).fill(3)]);
    });

    test("one signature raced by 50 claims and 50 markUsed: exactly one wins, and only a winning claim credits", async () => {
      const [store, peer] = open();
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          const instance = i % 4 < 2 ? store : peer;
          return i % 2 === 0
            ? instance.tryClaim("sig-race", `id-${i}`, 3, T0)
            : instance.tryMarkUsed("sig-race", "x402-facilitator:sig-race", T0);
        }),
      );
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "AlreadyClaimed")).toHaveLength(99);
      // The winner is credited its 3 queries when it claimed (even i), nobody when it was a markUsed.
      const winner = outcomes.indexOf("ok");
      const credited = await Promise.all(Array.from({ length: 50 }, (_, i) => peer.view(`id-${2 * i}`, T0)));
      expect(credited.map((view) => view.remaining)).toEqual(
        Array.from({ length: 50 }, (_, i) => (2 * i === winner ? 3 + 3 : 3)),
      );
      expect(await peer.view("x402-facilitator:sig-race", T0)).toEqual(await peer.view("never-seen", T0));
      expect(await peer.isClaimed("sig-race", T0)).toBe(true);
    });

    test("parallel commits of the same holds charge each hold once", async () => {
      const [store, peer] = open();
      await store.claim("s", "a", 2, T0);
      const holds = await Promise.all([0, 1, 2, 3].map(() => store.reserve("a", T0)));
      await Promise.all(
        holds.flatMap(({ hold }) => [store, peer, store].map((s) => s.commit("a", hold.id, T0))),
      );
      expect(await peer.view("a", T0)).toMatchObject({ remaining: 1, requiresPayment: false });
    });
  });

storeContract("memory", () => MemoryStore.layer(LIMITS), { shared: false });

if (redisServerAvailable()) {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  storeContract("redis", (keyPrefix) => RedisStore.layer({ url: server!.url, limits: LIMITS, keyPrefix }), {
    shared: true,
  });
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  storeContract(
    "redis-cluster",
    (keyPrefix) => RedisStore.layer({ url: cluster.target(), limits: LIMITS, keyPrefix }),
    { shared: true },
  );
}
