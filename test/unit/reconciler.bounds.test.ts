/**
 * The reconciler's RPC calls are the service's like any other chain lookup: each entry's fate
 * (two calls: the blockhash's validity and the signature's status) is admitted by the chain
 * lookup budget first, and an entry the budget refuses waits for a later round. A credit entry
 * whose payment record was forgotten can never be credited (the ledger's steps need the record):
 * it is given up, counted and logged, instead of being read on the RPC every round forever.
 */
import { afterAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { ChainLookupLimits } from "../../core/payments/chain-lookup-budget.ts";
import {
  type Fate,
  GIVE_UP_AFTER_MS,
  type PendingSettlement,
} from "../../core/payments/pending-settlement.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import { admitChainLookup } from "../../core/use-cases/reserve-chain-lookup.ts";
import { runOutcome } from "../../src/hono-kit/run-effect.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import { reconcileOnce } from "../../src/payments/v2/reconciler.ts";
import { defaultConfig, quotaLimits } from "../../src/runtime/app-layer.ts";

const ceilings = { perClientPerMinute: 30, perMinute: 2, perPayment: 3 };
const runtimes: Array<{ dispose: () => Promise<void> }> = [];
afterAll(async () => {
  for (const runtime of runtimes) await runtime.dispose();
});

const storeRuntime = () => {
  const runtime = ManagedRuntime.make(
    Layer.merge(MemoryStore.layer(quotaLimits(defaultConfig())), Layer.succeed(ChainLookupLimits)(ceilings)),
  );
  runtimes.push(runtime);
  return runtime;
};

const entry = (n: number): PendingSettlement => ({
  signature: `tx${n}`,
  kind: "credit",
  // A record the store does not hold (forgotten, or never written here).
  paymentId: `pay_forgotten_${n}`,
  lease: `lease${n}`,
  resource: "/api/chat",
  method: "POST",
  identity: "wallet:payer",
  queries: 10,
  payer: "payer",
  blockhash: "hash",
  since: Date.now(),
});

const reconcilerOver = (runtime: ReturnType<typeof storeRuntime>, fate: Fate) => {
  const fates: Array<string> = [];
  const metrics = makeMetrics();
  const { logger, lines } = memoryLogger();
  const round = () =>
    reconcileOnce(
      {
        run: async (effect) => runOutcome(runtime, effect),
        feePayer: {
          fate: async (signature) => {
            fates.push(signature);
            return fate;
          },
        },
        logger,
        metrics,
        afterMs: 0,
      },
      "holder",
    );
  return { round, fates, metrics, lines };
};

const record = (runtime: ReturnType<typeof storeRuntime>, entries: ReadonlyArray<PendingSettlement>) =>
  runtime.runPromise(
    Effect.flatMap(PendingSettlements, (pending) => Effect.forEach(entries, (one) => pending.record(one))),
  );

const pendingLeft = async (runtime: ReturnType<typeof storeRuntime>) =>
  (await runtime.runPromise(Effect.flatMap(PendingSettlements, (pending) => pending.list(100)))).length;

describe("the reconciler's RPC calls count in the chain lookup budget", () => {
  test("with two lookups a minute left for everyone, three due entries get two fate reads; the third waits", async () => {
    const runtime = storeRuntime();
    await record(runtime, [entry(1), entry(2), entry(3)]);
    const { round, fates } = reconcilerOver(runtime, "unknown");
    await round();
    expect(fates.length).toBe(2);
    // The budget is spent: nobody else gets a lookup this minute.
    const verdict = await runtime.runPromise(
      admitChainLookup({ client: "someone", signature: "sig" }, Date.now()),
    );
    expect(verdict).toEqual(expect.objectContaining({ admitted: false, scope: "everyone" }));
    expect(await pendingLeft(runtime)).toBe(3);
  });
});

describe("a credit entry whose payment record was forgotten", () => {
  test("is given up once it landed (counted, logged), and never read on the RPC again", async () => {
    const runtime = storeRuntime();
    await record(runtime, [entry(4)]);
    const { round, fates, metrics, lines } = reconcilerOver(runtime, "landed");
    expect(await round()).toEqual({ ran: true, closed: {}, credited: 0 });
    expect(await pendingLeft(runtime)).toBe(0);
    expect(metrics.render()).toContain(
      'x402_reconcile_given_up_total{kind="credit",reason="record-forgotten"} 1',
    );
    expect(lines.find((line) => line.transaction === "tx4")).toMatchObject({
      level: "ERROR",
      reason: "record-forgotten",
      payer: "payer",
      queries: 10,
    });
    await round();
    await round();
    expect(fates).toEqual(["tx4"]);
  });
});

describe("an entry older than GIVE_UP_AFTER_MS", () => {
  test("is given up before any RPC call is spent on it", async () => {
    const runtime = storeRuntime();
    await record(runtime, [{ ...entry(5), since: Date.now() - GIVE_UP_AFTER_MS }]);
    const { round, fates, metrics } = reconcilerOver(runtime, "landed");
    await round();
    expect(fates).toEqual([]);
    expect(await pendingLeft(runtime)).toBe(0);
    expect(metrics.render()).toContain('x402_reconcile_given_up_total{kind="credit",reason="too-old"} 1');
  });
});
