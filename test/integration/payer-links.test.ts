/**
 * Payer links (an identity that paid spends its wallet without a session), on the memory store
 * and on Redis alike: a link spends no more than was bought through it
 * (core/payments/link-allowance.ts), the session holder spends the rest, a give-back returns
 * the allowance, the owner's spending cuts it, and a link ends with the wallet's sessions.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import type * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { walletAccount } from "../../core/payments/wallet-credits.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { useRedisServer } from "../support/shared-redis.ts";

const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
const WALLET = "8a5uiSArRfLkoGX8Myr44L15hddBADyHvqZdFzeM98Ng";
const OTHER_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const THIRD_WALLET = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
const A = "203.0.113.9";
const B = "198.51.100.0/64";
const DAY = 86_400_000;
const shared = useRedisServer();
const cluster = clusterForSuite();
beforeAll(cluster.start, 60_000);
afterAll(cluster.stop);
const runtimes: Array<{ dispose: () => Promise<void> }> = [];
afterAll(async () => {
  for (const runtime of runtimes) await runtime.dispose();
});

type Stores = WalletSessions | WalletCredits | PaymentStore | QuotaStore;
const STORES = [
  ["memory", (_prefix: string, cap: number) => MemoryStore.layer({ ...limits, paidDailyCap: cap })],
  [
    "Redis",
    (prefix: string, cap: number) =>
      RedisStore.layer({
        url: shared.redis.url,
        limits: { ...limits, paidDailyCap: cap },
        keyPrefix: prefix,
      }),
  ],
  [
    "Redis Cluster",
    (prefix: string, cap: number) =>
      RedisStore.layer({
        url: cluster.target(),
        limits: { ...limits, paidDailyCap: cap },
        keyPrefix: prefix,
      }),
  ],
] as const;

describe.each(STORES)("payer links on %s", (_name, layerOf) => {
  const open = (cap = 1000) => {
    const runtime = ManagedRuntime.make(
      layerOf(`payer-links-${crypto.randomUUID()}:`, cap) as Layer.Layer<Stores, unknown>,
    );
    runtimes.push(runtime);
    const run = <A, E>(effect: Effect.Effect<A, E, Stores>) => runtime.runPromise(effect);
    const now = Date.UTC(2030, 0, 15, 12);
    let signatures = 0;
    /** A grant of `queries` to the wallet, bought through `identity` (linked) or elsewhere. */
    const grant = (queries: number, identity?: string, wallet = WALLET) =>
      run(
        Effect.gen(function* () {
          const store = yield* PaymentStore;
          yield* store.claim(`sig-${signatures++}`, walletAccount(wallet), queries, now);
          if (identity !== undefined)
            yield* (yield* WalletSessions).link(identity, wallet, queries, now + DAY, now);
        }),
      );
    /** Holds and counts questions, through `identity`'s link (or the session when undefined), until refused. */
    const spend = (through: string | undefined, at = now, max = 100) =>
      run(
        Effect.gen(function* () {
          const wallets = yield* WalletCredits;
          let spent = 0;
          while (spent < max) {
            const held = yield* Effect.result(wallets.reserve(WALLET, at, through));
            if (held._tag === "Failure") return { spent, refused: held.failure._tag };
            yield* wallets.commit(WALLET, held.success.hold.id, at, through);
            spent++;
          }
          return { spent, refused: undefined };
        }),
      );
    const view = (through: string | undefined) =>
      run(Effect.flatMap(WalletCredits, (wallets) => wallets.view(WALLET, now, through)));
    return { run, now, grant, spend, view };
  };

  test("a link is void once the wallet signs out everywhere; a new payment links again", async () => {
    const { run, now, grant } = open();
    const linked = (identity: string) => run(Effect.flatMap(WalletSessions, (s) => s.linked(identity, now)));
    await grant(10, A);
    expect(await linked(A)).toBe(WALLET);
    await run(Effect.flatMap(WalletSessions, (s) => s.closeAll(WALLET, now)));
    expect(await linked(A)).toBeUndefined();
    await grant(10, A);
    expect(await linked(A)).toBe(WALLET);
    // Another identity never linked reads nothing.
    expect(await linked("203.0.113.10")).toBeUndefined();
  });

  test("an identity spends through its link what it bought there, and no more; the session spends the rest", async () => {
    const { grant, spend, view } = open();
    await grant(10, A);
    await grant(10, B);
    // Bought on another network, with the session: no link from A reaches it.
    await grant(10);
    expect((await view(A)).paid).toBe(10);
    expect(await spend(A)).toEqual({ spent: 10, refused: "QuotaExhausted" });
    expect((await view(A)).paid).toBe(0);
    expect((await view(undefined)).paid).toBe(20);
    expect(await spend(B)).toEqual({ spent: 10, refused: "QuotaExhausted" });
    expect(await spend("192.0.2.1")).toEqual({ spent: 0, refused: "QuotaExhausted" });
    expect(await spend(undefined)).toEqual({ spent: 10, refused: "QuotaExhausted" });
  });

  test("a question given back returns to the link's allowance; a repeated commit spends once", async () => {
    const { run, now, grant, view } = open();
    await grant(2, A);
    await grant(5);
    const after = await run(
      Effect.gen(function* () {
        const wallets = yield* WalletCredits;
        const first = yield* wallets.reserve(WALLET, now, A);
        const second = yield* wallets.reserve(WALLET, now, A);
        // Both of A's questions are held: a third is refused though the wallet holds more.
        const third = yield* Effect.result(wallets.reserve(WALLET, now, A));
        yield* wallets.release(WALLET, first.hold.id, now, A);
        yield* wallets.commit(WALLET, second.hold.id, now, A);
        yield* wallets.commit(WALLET, second.hold.id, now, A);
        return third._tag;
      }),
    );
    expect(after).toBe("Failure");
    expect((await view(A)).paid).toBe(1);
    expect((await view(undefined)).paid).toBe(6);
  });

  test("a hold that lapses gives the allowance back", async () => {
    const { run, now, grant, spend } = open();
    await grant(1, A);
    await run(Effect.flatMap(WalletCredits, (wallets) => wallets.reserve(WALLET, now, A)));
    expect(await spend(A)).toEqual({ spent: 0, refused: "QuotaExhausted" });
    expect(await spend(A, now + limits.holdTtlMs + 1)).toEqual({ spent: 1, refused: "QuotaExhausted" });
  });

  test("what the session holder spends is cut from the link: never more than the wallet holds", async () => {
    const { grant, spend, view } = open();
    await grant(10, A);
    expect(await spend(undefined, undefined, 7)).toEqual({ spent: 7, refused: undefined });
    expect((await view(A)).paid).toBe(3);
    expect(await spend(A)).toEqual({ spent: 3, refused: "QuotaExhausted" });
    // The owner buys elsewhere afterwards: A's allowance was spent, so A reaches none of it.
    await grant(10);
    expect(await spend(A)).toEqual({ spent: 0, refused: "QuotaExhausted" });
  });

  test("the wallet's daily cap bounds a link too", async () => {
    const { grant, spend } = open(4);
    await grant(10, A);
    expect(await spend(A)).toEqual({ spent: 4, refused: "PaidDailyCapReached" });
  });

  test("paying with another wallet replaces the link and its allowance; a sign-out everywhere ends it", async () => {
    const { run, now, grant, spend, view } = open();
    await grant(3, A);
    await grant(5, A, OTHER_WALLET);
    expect(await spend(A)).toEqual({ spent: 0, refused: "QuotaExhausted" });
    await grant(2, A);
    expect((await view(A)).paid).toBe(2);
    await run(Effect.flatMap(WalletSessions, (s) => s.closeAll(WALLET, now)));
    expect((await view(A)).paid).toBe(0);
    expect(await spend(A)).toEqual({ spent: 0, refused: "QuotaExhausted" });
  });

  test("a hold as payer reads the link in the same step: the link's wallet first, then the identity's own quota", async () => {
    const { run, now, grant } = open(2);
    /** Where each hold as payer of `identity` lands, committed, until refused. */
    const holds = (identity: string) =>
      run(
        Effect.gen(function* () {
          const wallets = yield* WalletCredits;
          const landed: string[] = [];
          while (landed.length < 10) {
            const held = yield* Effect.result(wallets.reserveAsPayer(identity, now));
            if (held._tag === "Failure") return [...landed, held.failure._tag];
            const { hold, wallet, onWallet } = held.success;
            landed.push(`${onWallet ? "wallet" : "identity"} ${hold.bucket} ${wallet ?? "-"}`);
            if (onWallet && wallet !== undefined) yield* wallets.commit(wallet, hold.id, now, identity);
            else yield* (yield* QuotaStore).commit(identity, hold.id, now);
          }
          return landed;
        }),
      );
    // No link: the identity's free question, then nothing.
    expect(await holds("192.0.2.1")).toEqual(["identity free -", "QuotaExhausted"]);
    // Three bought through A, a daily cap of 2: two from the wallet, then A's free one; the
    // wallet's cap is the reason after, not a payment (its third question comes back tomorrow).
    await grant(3, A);
    expect(await holds(A)).toEqual([
      `wallet paid ${WALLET}`,
      `wallet paid ${WALLET}`,
      `identity free ${WALLET}`,
      "PaidDailyCapReached",
    ]);
    // B bought 1 with OTHER_WALLET (its hold learns that wallet), then pays with a third: the
    // next hold finds the new link, never the wallet it saw before.
    await grant(1, B, OTHER_WALLET);
    expect(await holds(B)).toEqual([
      `wallet paid ${OTHER_WALLET}`,
      `identity free ${OTHER_WALLET}`,
      "QuotaExhausted",
    ]);
    await grant(1, B, THIRD_WALLET);
    expect(await holds(B)).toEqual([`wallet paid ${THIRD_WALLET}`, "QuotaExhausted"]);
    // A sign-out everywhere voids the link: the next hold does not reach the wallet.
    await grant(1, B, THIRD_WALLET);
    await run(Effect.flatMap(WalletSessions, (s) => s.closeAll(THIRD_WALLET, now)));
    expect(await holds(B)).toEqual(["QuotaExhausted"]);
  });
});
