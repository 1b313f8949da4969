/**
 * Model-based test of both stores: random sequences of reserve / commit / release / claim
 * (fresh or reused signature) / isClaimed / clock moves run against the real store and
 * against a tiny model (core/quota.ts + core/payments/signature-ledger.ts on plain maps). After every
 * step every identity's view must agree. Small limits, so caps and exhaustion are hit often;
 * a start just before midnight, so day rollovers and lapsing holds happen too.
 */
import { afterAll, beforeAll, describe, test } from "bun:test";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Result from "effect/Result";
import fc from "fast-check";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { isRemembered, markUsed, type UsedSignature } from "../../core/payments/signature-ledger.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import * as Quota from "../../core/quota.ts";
import { DAY_MS } from "../../core/time.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

/** Small limits, drawn per run, so that exhaustion and the cap are hit often and mask nothing. */
const limitsArbitrary = fc.record({
  freePerDay: fc.integer({ min: 0, max: 3 }),
  paidDailyCap: fc.integer({ min: 1, max: 8 }),
  holdTtlMs: fc.constantFrom(1_000, 30_000),
});
// Twenty seconds before midnight, so holds are often taken on one day and settled on the next.
const START = Date.UTC(2030, 0, 15, 23, 59, 40);
const IDENTITIES = ["x", "y"];
const SIGNATURES = ["s1", "s2", "s3", "s4", "s5", "s6"];

type Stores = QuotaStore | PaymentStore;
type Runtime = ManagedRuntime.ManagedRuntime<Stores, StoreUnavailable>;
interface Model {
  readonly limits: Quota.QuotaLimits;
  now: number;
  readonly quotas: Map<string, Quota.QuotaState>;
  readonly ledger: Map<string, UsedSignature>;
  /** Every hold the store ever issued, settled or not: commands replay them at random. */
  readonly holds: Array<{ readonly identity: string; readonly id: string }>;
}
/** Two instances on one state (the same one for the memory store). */
type Real = readonly [Runtime, Runtime];
type Command = fc.AsyncCommand<Model, Real>;

const exitOf = <A, E>(real: Real, instance: number, effect: Effect.Effect<A, E, Stores>) =>
  real[instance % 2]!.runPromiseExit(effect);
const stateOf = (m: Model, identity: string) => m.quotas.get(identity) ?? Quota.emptyQuota(m.now);
/** A plain comparable form of a result: `{ ok }` or `{ error }` with the error's fields. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));
const settled = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isSuccess(exit) ? { ok: plain(exit.value) } : { error: plain(Cause.squash(exit.cause)) };
const equal = (what: string, actual: unknown, expected: unknown) => {
  if (!Bun.deepEquals(actual, expected))
    throw new Error(`${what}: store ${JSON.stringify(actual)} != model ${JSON.stringify(expected)}`);
};
/** The invariant after each step: every identity's view equals the model's. */
const checkViews = async (m: Model, real: Real) => {
  for (const identity of IDENTITIES) {
    const exit = await exitOf(
      real,
      0,
      QuotaStore.use((q) => q.view(identity, m.now)),
    );
    equal(`view(${identity})`, settled(exit), { ok: Quota.view(stateOf(m, identity), m.now, m.limits) });
  }
};
const command = (label: string, run: (m: Model, real: Real) => Promise<void>): Command => ({
  check: () => true,
  run: async (m, real) => {
    await run(m, real);
    await checkViews(m, real);
  },
  toString: () => label,
});

const identity = fc.constantFrom(...IDENTITIES);
const instance = fc.nat(1);
const commands = [
  fc.tuple(identity, instance).map(([id, at]) =>
    command(`reserve(${id})@${at}`, async (m, real) => {
      const exit = await exitOf(
        real,
        at,
        QuotaStore.use((q) => q.reserve(id, m.now)),
      );
      const holdId = Exit.isSuccess(exit) ? exit.value.hold.id : "none";
      const expected = Quota.reserve(stateOf(m, id), m.now, holdId, m.limits);
      if (Result.isFailure(expected))
        return equal("reserve", settled(exit), { error: plain(expected.failure) });
      const [state, hold] = expected.success;
      equal("reserve", settled(exit), { ok: { hold, view: Quota.view(state, m.now, m.limits) } });
      m.quotas.set(id, state);
      m.holds.push({ identity: id, id: holdId });
    }),
  ),
  ...(["commit", "release"] as const).map((kind) =>
    fc.tuple(fc.nat(), instance).map(([pick, at]) =>
      command(`${kind}(#${pick})@${at}`, async (m, real) => {
        const hold = m.holds[pick % Math.max(1, m.holds.length)] ?? { identity: "x", id: "never-issued" };
        const exit = await exitOf(
          real,
          at,
          QuotaStore.use((q) => q[kind](hold.identity, hold.id, m.now)),
        );
        const state = (kind === "commit" ? Quota.commit : Quota.release)(
          stateOf(m, hold.identity),
          m.now,
          hold.id,
        );
        equal(kind, settled(exit), { ok: Quota.view(state, m.now, m.limits) });
        m.quotas.set(hold.identity, state);
      }),
    ),
  ),
  fc
    .tuple(fc.constantFrom(...SIGNATURES), identity, fc.integer({ min: 1, max: 5 }), instance)
    .map(([sig, id, queries, at]) =>
      command(`claim(${sig}, ${id}, ${queries})@${at}`, async (m, real) => {
        const exit = await exitOf(
          real,
          at,
          PaymentStore.use((p) => p.claim(sig, id, queries, m.now)),
        );
        const used = markUsed(m.ledger.get(sig), m.now, id, queries);
        if (used === undefined) return equal("claim", settled(exit), { error: { _tag: "AlreadyClaimed" } });
        const state = Quota.grant(stateOf(m, id), m.now, queries);
        equal("claim", settled(exit), { ok: Quota.view(state, m.now, m.limits) });
        m.ledger.set(sig, used);
        m.quotas.set(id, state);
      }),
    ),
  fc.tuple(fc.constantFrom(...SIGNATURES), instance).map(([sig, at]) =>
    command(`isClaimed(${sig})@${at}`, async (m, real) => {
      const exit = await exitOf(
        real,
        at,
        PaymentStore.use((p) => p.isClaimed(sig, m.now)),
      );
      equal("isClaimed", settled(exit), { ok: isRemembered(m.ledger.get(sig), m.now) });
    }),
  ),
  fc.constantFrom(1_000, 10_000, 20_000, 29_999, 30_000, 3_600_000, DAY_MS, 31 * DAY_MS).map((ms) =>
    command(`advance(${ms})`, async (m) => {
      m.now += ms;
    }),
  ),
];

type MakeLayer = (namespace: string, limits: Quota.QuotaLimits) => Layer.Layer<Stores, StoreUnavailable>;

const modelRuns = (makeLayer: MakeLayer, shared: boolean, numRuns: number) =>
  fc.assert(
    fc.asyncProperty(
      limitsArbitrary,
      fc.commands(commands, { maxCommands: 60, size: "max" }),
      async (limits, cmds) => {
        const namespace = `m-${crypto.randomUUID()}:`;
        const first = ManagedRuntime.make(makeLayer(namespace, limits));
        const second = shared ? ManagedRuntime.make(makeLayer(namespace, limits)) : first;
        const model: Model = { limits, now: START, quotas: new Map(), ledger: new Map(), holds: [] };
        try {
          await fc.asyncModelRun(() => ({ model, real: [first, second] as const }), cmds);
        } finally {
          await Effect.runPromise(Effect.all([first.disposeEffect, second.disposeEffect]));
        }
      },
    ),
    { numRuns },
  );

describe("store model", () => {
  test("memory store follows the model", () =>
    modelRuns((_, limits) => MemoryStore.layer(limits), false, 300));

  if (redisServerAvailable()) {
    let server: RedisServer | undefined;
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(() => server?.stop());
    test("redis store (two instances) follows the model", () =>
      modelRuns((keyPrefix, limits) => RedisStore.layer({ url: server!.url, limits, keyPrefix }), true, 50));
    const cluster = clusterForSuite();
    beforeAll(cluster.start, 60_000);
    afterAll(cluster.stop);
    test("redis store on a cluster (two instances) follows the model", () =>
      modelRuns(
        (keyPrefix, limits) => RedisStore.layer({ url: cluster.target(), limits, keyPrefix }),
        true,
        50,
      ));
  }
});
