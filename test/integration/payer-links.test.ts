/**
 * Payer links (an identity that paid spends its wallet) end with the wallet's sessions: when the
 * owner signs out everywhere, a link made before is void on the memory store and on Redis
 * alike, and a payment made after links again.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Effect, type Layer, ManagedRuntime } from "effect";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { useRedisServer } from "../support/shared-redis.ts";

const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
const WALLET = "8a5uiSArRfLkoGX8Myr44L15hddBADyHvqZdFzeM98Ng";
const DAY = 86_400_000;
const shared = useRedisServer();
const runtimes: Array<{ dispose: () => Promise<void> }> = [];
afterAll(async () => {
  for (const runtime of runtimes) await runtime.dispose();
});

const STORES = [
  ["memory", () => MemoryStore.layer(limits)],
  ["Redis", () => RedisStore.layer({ url: shared.redis.url, limits, keyPrefix: "payer-links:" })],
] as const;

describe.each(STORES)("payer links on %s", (_name, layerOf) => {
  test("a link is void once the wallet signs out everywhere; a new payment links again", async () => {
    const runtime = ManagedRuntime.make(layerOf() as Layer.Layer<WalletSessions, unknown>);
    runtimes.push(runtime);
    const run = <A, E>(use: (sessions: WalletSessions["Service"]) => Effect.Effect<A, E>) =>
      runtime.runPromise(Effect.flatMap(WalletSessions, use));
    const now = Date.now();
    await run((s) => s.link("203.0.113.9", WALLET, now + DAY, now));
    expect(await run((s) => s.linked("203.0.113.9", now))).toBe(WALLET);
    await run((s) => s.closeAll(WALLET, now));
    expect(await run((s) => s.linked("203.0.113.9", now))).toBeUndefined();
    await run((s) => s.link("203.0.113.9", WALLET, now + DAY, now));
    expect(await run((s) => s.linked("203.0.113.9", now))).toBe(WALLET);
    // Another identity never linked reads nothing.
    expect(await run((s) => s.linked("203.0.113.10", now))).toBeUndefined();
  });
});
