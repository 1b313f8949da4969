/**
 * Payer links' allowances (core/payments/link-allowance.ts) under random command sequences, on
 * the memory store and a real Redis side by side: grants bought through an identity or
 * elsewhere, payments with another wallet, spends through a link or with the session, commits,
 * give-backs, lapsing holds, day changes and "sign out everywhere". Every result must be the
 * same on both stores, and a tiny model of what each identity bought holds both to the rule:
 * an identity never spends through its link more than it bought there, and never more than the
 * wallet holds.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import fc from "fast-check";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { walletAccount } from "../../core/payments/wallet-credits.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import type { QuotaLimits } from "../../core/quota.ts";
import { DAY_MS } from "../../core/time.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

type Stores = PaymentStore | WalletCredits | WalletSessions;
const WALLET = "8a5uiSArRfLkoGX8Myr44L15hddBADyHvqZdFzeM98Ng";
const OTHER_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const IDENTITIES = ["a", "b"] as const;
/** Two minutes before midnight: holds often span the day change (the daily cap resets). */
const START = Date.UTC(2030, 0, 15, 23, 58);
const LINK_MS = 30 * DAY_MS;

interface Hold {
  readonly ids: readonly [string, string];
  readonly through: string | undefined;
  readonly expiresAt: number;
}

interface Model {
  now: number;
  readonly holdTtlMs: number;
  /** The wallet's paid credits: granted minus committed. */
  balance: number;
  /** Per identity, since its link to WALLET was made: bought there, and spent through the link. */
  readonly bought: Map<string, number>;
  readonly spent: Map<string, number>;
  readonly holds: Hold[];
  signatures: number;
}

interface Pair {
  readonly run: <A, E>(side: 0 | 1, effect: Effect.Effect<A, E, Stores>) => Promise<Exit.Exit<A, unknown>>;
}
type Command = fc.AsyncCommand<Model, Pair>;

/** Runs on both stores; the two outcomes must be equal once hold ids are left out. */
const both = async <A, E>(pair: Pair, label: string, make: (side: 0 | 1) => Effect.Effect<A, E, Stores>) => {
  const exits = [await pair.run(0, make(0)), await pair.run(1, make(1))] as const;
  const plain = (exit: Exit.Exit<A, unknown>) =>
    Exit.isSuccess(exit)
      ? { ok: JSON.parse(JSON.stringify(exit.value ?? null, (key, v) => (key === "id" ? "held" : v))) }
      : { error: JSON.parse(JSON.stringify(Cause.squash(exit.cause))) };
  const [memory, redis] = [plain(exits[0]), plain(exits[1])];
  if (!Bun.deepEquals(memory, redis))
    throw new Error(`${label}: memory ${JSON.stringify(memory)} != redis ${JSON.stringify(redis)}`);
  return exits;
};

const command = (label: string, run: (m: Model, pair: Pair) => Promise<unknown>): Command => ({
  check: () => true,
  run: async (m, pair) => {
    await run(m, pair);
    await invariants(m, pair);
  },
  toString: () => label,
});

const liveHolds = (m: Model, through: string | undefined) =>
  m.holds.filter((hold) => hold.expiresAt > m.now && hold.through === through).length;

/** After every step: each identity's view through its link is within what it bought and the wallet holds. */
const invariants = async (m: Model, pair: Pair) => {
  for (const identity of IDENTITIES) {
    const [memory] = await both(pair, `view(${identity})`, () =>
      WalletCredits.use((w) => w.view(WALLET, m.now, identity)),
    );
    if (!Exit.isSuccess(memory)) throw new Error("view failed");
    const left = (m.bought.get(identity) ?? 0) - (m.spent.get(identity) ?? 0) - liveHolds(m, identity);
    expect(m.spent.get(identity) ?? 0).toBeLessThanOrEqual(m.bought.get(identity) ?? 0);
    expect(memory.value.paid).toBeLessThanOrEqual(Math.max(0, left));
    expect(memory.value.paid).toBeLessThanOrEqual(m.balance);
  }
  await both(pair, "view(session)", () => WalletCredits.use((w) => w.view(WALLET, m.now)));
};

const forget = (m: Model, identity: string) => {
  m.bought.delete(identity);
  m.spent.delete(identity);
  for (const [index, hold] of m.holds.entries())
    if (hold.through === identity) m.holds[index] = { ...hold, through: `${identity} (replaced)` };
};

/** Queries bought from `identity` (linked) or elsewhere, to WALLET or to another wallet. */
const grant = fc
  .record({
    identity: fc.option(fc.constantFrom(...IDENTITIES), { nil: undefined }),
    other: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    queries: fc.integer({ min: 1, max: 4 }),
  })
  .map(({ identity, other, queries }) =>
    command(
      `grant(${identity ?? "elsewhere"}, ${other ? "other wallet" : "wallet"}, ${queries})`,
      (m, pair) => {
        const wallet = other ? OTHER_WALLET : WALLET;
        const signature = `sig-${m.signatures++}`;
        if (!other) m.balance += queries;
        if (identity !== undefined) {
          if (other) forget(m, identity);
          else m.bought.set(identity, (m.bought.get(identity) ?? 0) + queries);
        }
        return both(pair, "grant", () =>
          Effect.gen(function* () {
            yield* PaymentStore.use((p) => p.claim(signature, walletAccount(wallet), queries, m.now));
            if (identity !== undefined)
              yield* WalletSessions.use((s) => s.link(identity, wallet, queries, m.now + LINK_MS, m.now));
          }),
        );
      },
    ),
  );

const reserve = fc.option(fc.constantFrom(...IDENTITIES), { nil: undefined, freq: 3 }).map((through) =>
  command(`reserve(${through ?? "session"})`, async (m, pair) => {
    const [memory, redis] = await both(pair, "reserve", () =>
      WalletCredits.use((w) => w.reserve(WALLET, m.now, through)),
    );
    if (Exit.isSuccess(memory) && Exit.isSuccess(redis))
      m.holds.push({
        ids: [memory.value.hold.id, redis.value.hold.id],
        through,
        expiresAt: memory.value.hold.expiresAt,
      });
  }),
);

const settle = fc
  .tuple(fc.constantFrom("commit" as const, "release" as const), fc.nat())
  .map(([outcome, index]) =>
    command(`${outcome}(hold#${index})`, async (m, pair) => {
      const hold = m.holds[index % Math.max(1, m.holds.length)];
      if (hold === undefined) return;
      // A hold through a link that was replaced since is settled as its client would: through the identity.
      const through = hold.through?.replace(" (replaced)", "");
      await both(pair, outcome, (side) =>
        WalletCredits.use((w) => w[outcome](WALLET, hold.ids[side], m.now, through)),
      );
      if (outcome === "commit" && hold.expiresAt > m.now) {
        m.balance -= 1;
        if (hold.through !== undefined && !hold.through.endsWith("(replaced)"))
          m.spent.set(hold.through, (m.spent.get(hold.through) ?? 0) + 1);
      }
      m.holds.splice(m.holds.indexOf(hold), 1);
    }),
  );

const signOutEverywhere = fc.constant(
  command("closeAll", (m, pair) => {
    for (const identity of IDENTITIES) forget(m, identity);
    return both(pair, "closeAll", () => WalletSessions.use((s) => s.closeAll(WALLET, m.now)));
  }),
);

const advance = fc.constantFrom(1_000, 30_000, DAY_MS).map((ms) =>
  command(`advance(${ms})`, async (m) => {
    m.now += ms;
  }),
);

describe("payer links on memory and Redis", () => {
  if (!redisServerAvailable()) return;
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  // The same store on a 3-primary cluster, held to the same model.
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);

  const targets = [
    ["Redis", () => server?.url ?? ""],
    ["Redis Cluster", () => cluster.target()],
  ] as const;
  test.each(targets)(
    "an identity spends through its link no more than it bought there; memory and %s agree",
    async (_name, target) => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            paidDailyCap: fc.integer({ min: 1, max: 8 }),
            holdTtlMs: fc.constantFrom(1_000, 30_000),
          }),
          fc.commands([grant, grant, reserve, reserve, reserve, settle, settle, signOutEverywhere, advance], {
            maxCommands: 40,
            size: "max",
          }),
          async (rules, cmds) => {
            const limits: QuotaLimits = { freePerDay: 1, ...rules };
            const layers = [
              MemoryStore.layer(limits),
              RedisStore.layer({ url: target(), limits, keyPrefix: `links-${crypto.randomUUID()}:` }),
            ] as const;
            const runtimes = layers.map((layer) =>
              ManagedRuntime.make(layer as Layer.Layer<Stores, unknown>),
            );
            const pair: Pair = { run: (side, effect) => runtimes[side]!.runPromiseExit(effect) };
            const model: Model = {
              now: START,
              holdTtlMs: limits.holdTtlMs,
              balance: 0,
              bought: new Map(),
              spent: new Map(),
              holds: [],
              signatures: 0,
            };
            try {
              await fc.asyncModelRun(() => ({ model, real: pair }), cmds);
            } finally {
              await Promise.all(runtimes.map((runtime) => runtime.dispose()));
            }
          },
        ),
        { numRuns: 100 },
      );
    },
    120_000,
  );
});
