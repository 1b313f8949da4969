/**
 * Every sponsored x402 v2 settlement whose outcome is unknown is followed to its end, on the
 * local chain with the official client's payloads: a transaction whose confirmation is held back
 * past the wait (the local chain's confirmation delay, the fee payer's wait shortened to 300 ms)
 * is answered `settlement_pending`, recorded, and once it lands the reconciler credits the paying
 * wallet exactly once: on one instance (memory), and on two instances sharing Redis with a
 * restart in between (a fresh app on the same Redis), both reconciling at once. One that never
 * lands (its blockhash expires unseen) is closed with nothing credited; one whose store failed
 * right after sending is credited by the reconciler. Through the facilitator
 * API, a later settle of the same payload succeeds once it landed, and only once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner, Signature } from "@solana/kit";
import * as Effect from "effect/Effect";
import type * as ManagedRuntime from "effect/ManagedRuntime";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { CeilingCounter } from "../../core/ports/ceiling-counter.ts";
import type { PaymentRequests } from "../../core/ports/payment-requests.ts";
import { PendingSettlements } from "../../core/ports/pending-settlements.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import { runOutcome } from "../../src/hono-kit/run-effect.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import type { Metrics } from "../../src/observability/metrics.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { reconcileOnce } from "../../src/payments/v2/reconciler.ts";
import { defaultConfig, quotaLimits } from "../../src/runtime/app-layer.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { paywallInstance } from "../support/paywall-v2.ts";
import { rawClient, redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import {
  exactHeader,
  officialPaymentHeader,
  settlementOf,
  startChainWithFacilitator,
  transferFor,
} from "../support/x402-v2.ts";

/** 0.01 USDC: ten questions. */
const PRICE = 10_000n;
const QUERIES = 10;
/** Longer than the fee payer's wait (300 ms): the settlement ends unknown, the transaction lands later. */
const HELD_BACK_MS = 1_500;
const build = testApps(afterAll);
let chain: TestChain;
let facilitator: ExactFacilitator;

beforeAll(async () => {
  const started = await startChainWithFacilitator({ confirmTimeoutMs: 300 });
  chain = started.chain;
  if (started.facilitator === undefined) throw new Error("the local chain's fee payer did not start");
  facilitator = started.facilitator;
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}): TestApp =>
  build({
    freeQueries: 1,
    ...options,
    facilitator,
    chain: chainReaderOf(chain),
  });

const reconcileOn = (
  runtime: ManagedRuntime.ManagedRuntime<PendingSettlements | PaymentRequests | CeilingCounter, never>,
  metrics?: Metrics,
) =>
  reconcileOnce(
    {
      run: async (effect) => runOutcome(runtime, effect),
      feePayer: facilitator.feePayer,
      logger: memoryLogger().logger,
      ...(metrics === undefined ? {} : { metrics }),
      afterMs: 0,
    },
    crypto.randomUUID(),
  );
const reconcile = (t: TestApp) => reconcileOn(t.runtime, t.metrics);

const walletCredits = async (t: TestApp, payer: KeyPairSigner) =>
  (await t.runtime.runPromise(Effect.flatMap(WalletCredits, (w) => w.view(payer.address, Date.now()))))
    .remaining;

const pendingCount = async (t: TestApp) =>
  (await t.runtime.runPromise(Effect.flatMap(PendingSettlements, (p) => p.list(100)))).length;

/** Waits (polling the chain, no fixed sleep) until the transaction is confirmed. */
const untilConfirmed = async (signature: string) => {
  for (;;) {
    const { value } = await chain.rpc.getSignatureStatuses([signature as Signature]).send();
    if (value[0]?.confirmationStatus === "confirmed" || value[0]?.confirmationStatus === "finalized") return;
    await Bun.sleep(100);
  }
};

/** Pays on `t` while confirmations are held back: answered pending, the transaction named. */
const payPending = async (t: TestApp, from: string) => {
  const payer = await chain.fundPayer();
  const header = await officialPaymentHeader(
    { signer: payer, rpcUrl: chain.url, mint: chain.mint },
    await exhaustFreeQuestion(t, from),
    // Its own fresh blockhash: the offer's hint may be one a test before let expire.
    { ownBlockhash: true },
  );
  const before = await chain.usdcBalance(payer.address);
  chain.localnet.setConfirmationDelay(HELD_BACK_MS);
  const response = await askChat(t, from, { "PAYMENT-SIGNATURE": header }).finally(() =>
    chain.localnet.setConfirmationDelay(0),
  );
  expect(response.status).toBe(403);
  expect(await response.json()).toMatchObject({ code: "EXACT_SETTLEMENT_PENDING", retryable: true });
  const settlement = settlementOf(response);
  expect(settlement).toMatchObject({ success: false, errorReason: "settlement_pending" });
  return { payer, header, before, transaction: settlement?.transaction ?? "" };
};

describe("x402 v2 settlements left pending are reconciled", () => {
  test("one instance: held back past the wait, answered pending; once landed, credited to the paying wallet once", async () => {
    const t = onChain();
    const from = "198.51.100.81";
    const { payer, header, before, transaction } = await payPending(t, from);
    expect(await pendingCount(t)).toBe(1);
    expect(await walletCredits(t, payer)).toBe(0);
    await untilConfirmed(transaction);
    expect(await reconcile(t)).toEqual({ ran: true, closed: { landed: 1 }, credited: 1 });
    expect(await walletCredits(t, payer)).toBe(QUERIES);
    expect(await pendingCount(t)).toBe(0);
    // Nothing left: a second round and the same payload again credit nothing more.
    expect(await reconcile(t)).toEqual({ ran: true, closed: {}, credited: 0 });
    const again = await askChat(t, from, { "PAYMENT-SIGNATURE": header });
    expect(((await again.json()) as { code: string }).code).toBe("PAYMENT_ALREADY_USED");
    expect(await walletCredits(t, payer)).toBe(QUERIES);
    expect(before - (await chain.usdcBalance(payer.address))).toBe(PRICE);
    expect(t.metrics.render()).toContain('x402_reconciled_total{kind="credit",fate="landed"} 1');
  });

  test("the same payload sent again once it landed is credited by that request; the reconciler then credits nothing", async () => {
    const t = onChain();
    const from = "198.51.100.82";
    const { payer, header, transaction } = await payPending(t, from);
    await untilConfirmed(transaction);
    // Answered: ten bought, one spent on this answer.
    expect((await askChat(t, from, { "PAYMENT-SIGNATURE": header })).status).toBe(200);
    expect(await walletCredits(t, payer)).toBe(QUERIES - 1);
    expect(await reconcile(t)).toEqual({ ran: true, closed: {}, credited: 0 });
    expect(await pendingCount(t)).toBe(0);
    expect(await walletCredits(t, payer)).toBe(QUERIES - 1);
  });

  test("a transaction that never lands (its blockhash expires unseen): closed, nothing credited", async () => {
    const t = onChain();
    const from = "198.51.100.83";
    const payer = await chain.fundPayer();
    const header = await officialPaymentHeader(
      { signer: payer, rpcUrl: chain.url, mint: chain.mint },
      await exhaustFreeQuestion(t, from),
    );
    const before = await chain.usdcBalance(payer.address);
    // The RPC refuses the send and cannot say the status: the outcome is unknown, the entry stays.
    chain.localnet.setFaults({ sendTransaction: "http-500", getSignatureStatuses: "http-500" });
    const failed = await askChat(t, from, { "PAYMENT-SIGNATURE": header });
    chain.localnet.setFaults({});
    expect(((await failed.json()) as { code: string }).code).toBe("EXACT_SETTLEMENT_FAILED");
    expect(await pendingCount(t)).toBe(1);
    // Still valid: it could land yet, so it is left alone.
    expect(await reconcile(t)).toEqual({ ran: true, closed: {}, credited: 0 });
    expect(await pendingCount(t)).toBe(1);
    chain.localnet.skipBlocks(200);
    expect(await reconcile(t)).toEqual({ ran: true, closed: { expired: 1 }, credited: 0 });
    expect(await pendingCount(t)).toBe(0);
    expect(await walletCredits(t, payer)).toBe(0);
    expect(await chain.usdcBalance(payer.address)).toBe(before);
  });
});

describe("a paywalled route", () => {
  test("held back past the wait: 402 settlement_pending, content withheld; once landed and reconciled, the same payload is served without anything sent", async () => {
    const on = paywallInstance(chain, facilitator, MemoryStore.layer(quotaLimits(defaultConfig())));
    const payer = await chain.fundPayer({ usdcUnits: 100_000n });
    const header = await on.honest(payer);
    chain.localnet.setConfirmationDelay(HELD_BACK_MS);
    const pending = await Promise.resolve(on.get(header)).finally(() =>
      chain.localnet.setConfirmationDelay(0),
    );
    expect(pending.status).toBe(402);
    expect(((await pending.json()) as { Details: { reason: string } }).Details.reason).toBe(
      "exact-settlement-pending",
    );
    const settlement = settlementOf(pending);
    expect(settlement).toMatchObject({ success: false, errorReason: "settlement_pending" });
    await untilConfirmed(settlement?.transaction ?? "");
    expect(await reconcileOn(on.runtime)).toEqual({ ran: true, closed: { landed: 1 }, credited: 0 });
    const sent = chain.localnet.calls("sendTransaction");
    const served = await on.get(header);
    expect(served.status).toBe(200);
    expect(settlementOf(served)).toMatchObject({ success: true, transaction: settlement?.transaction });
    expect(chain.localnet.calls("sendTransaction")).toBe(sent);
    expect(await chain.usdcBalance(payer.address)).toBe(0n);
    await on.runtime.dispose();
  });
});

describe("the facilitator API answers pending, then settles the same payload once it landed", () => {
  const TOKEN = "facilitator-token-0123456789";
  const settle = async (t: TestApp, body: unknown) =>
    (await (
      await t.call("/x402/settle", {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, unknown>;

  test("settlement_pending while unconfirmed; success once landed, to one of two callers; then refused; sent once", async () => {
    const t = onChain({ facilitatorToken: TOKEN });
    const payer = await chain.fundPayer();
    const requirements = {
      scheme: "exact",
      network: facilitator.network,
      amount: `${PRICE}`,
      asset: chain.mint,
      payTo: chain.serviceWallet,
      maxTimeoutSeconds: 60,
      extra: { feePayer: facilitator.feePayer.address },
    };
    const header = await exactHeader(requirements, [await transferFor({ requirements, payer })], {
      rpcUrl: chain.url,
    });
    const body = {
      x402Version: 2,
      paymentPayload: JSON.parse(atob(header)),
      paymentRequirements: requirements,
    };
    const before = await chain.usdcBalance(payer.address);
    const sent = chain.localnet.calls("sendTransaction");
    chain.localnet.setConfirmationDelay(HELD_BACK_MS);
    const first = await settle(t, body).finally(() => chain.localnet.setConfirmationDelay(0));
    expect(first).toMatchObject({ success: false, errorReason: "settlement_pending", payer: payer.address });
    const transaction = String(first.transaction);
    expect(transaction.length).toBeGreaterThan(80);
    await untilConfirmed(transaction);
    const [again, twin] = await Promise.all([settle(t, body), settle(t, body)]);
    const outcomes = [again, twin].map((reply) => reply.success === true);
    expect(outcomes.sort()).toEqual([false, true]);
    expect([again, twin].find((reply) => reply.success === true)).toMatchObject({ transaction });
    expect([again, twin].find((reply) => reply.success !== true)).toMatchObject({
      errorReason: "signature-already-used",
    });
    // Later still, a replay is refused (it fails in simulation now: it landed); nothing is sent.
    expect(await settle(t, body)).toMatchObject({ success: false, errorReason: "exact-simulation-failed" });
    expect(chain.localnet.calls("sendTransaction") - sent).toBe(1);
    expect(before - (await chain.usdcBalance(payer.address))).toBe(PRICE);
  });
});

describe.if(redisServerAvailable())("two instances on one Redis, with a restart in between", () => {
  const context = useRedisServer();
  test("held back past the wait on one instance; a fresh instance and the other reconcile at once: credited exactly once", async () => {
    const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
    const store = () => RedisStore.layer({ url: context.redis.url, limits, keyPrefix: "reconcile:" });
    const first = onChain({ store: store() });
    const second = onChain({ store: store() });
    const from = "198.51.100.84";
    const { payer, header, before, transaction } = await payPending(first, from);
    // The instance that sent it goes away; a fresh one starts on the same Redis.
    await first.dispose();
    const restarted = onChain({ store: store() });
    expect(await pendingCount(restarted)).toBe(1);
    await untilConfirmed(transaction);
    const rounds = await Promise.all([reconcile(second), reconcile(restarted), reconcile(second)]);
    expect(rounds.reduce((sum, round) => sum + round.credited, 0)).toBe(1);
    // A round after that, on either, finds nothing left.
    expect(await reconcile(second)).toEqual({ ran: true, closed: {}, credited: 0 });
    expect(await reconcile(restarted)).toEqual({ ran: true, closed: {}, credited: 0 });
    expect(await pendingCount(restarted)).toBe(0);
    expect(await walletCredits(restarted, payer)).toBe(QUERIES);
    expect(await walletCredits(second, payer)).toBe(QUERIES);
    const again = await askChat(second, from, { "PAYMENT-SIGNATURE": header });
    expect(((await again.json()) as { code: string }).code).toBe("PAYMENT_ALREADY_USED");
    expect(await walletCredits(second, payer)).toBe(QUERIES);
    expect(before - (await chain.usdcBalance(payer.address))).toBe(PRICE);
  });

  test("the store fails right after sending (Redis writes paused past the command timeout, the connections dropped): answered pending, then credited once", async () => {
    // A fee payer that waits long enough for this confirmation, and a store that gives up after 300 ms.
    const patient = await startFacilitator({
      rpcUrl: chain.url,
      feePayer: chain.localnet.feePayer,
      logger: memoryLogger().logger,
    });
    if (patient === undefined) throw new Error("no facilitator");
    const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
    const t = build({
      freeQueries: 1,
      facilitator: patient,
      store: RedisStore.layer({
        url: context.redis.url,
        limits,
        keyPrefix: "paused:",
        commandTimeoutMs: 300,
      }),
      chain: chainReaderOf(chain),
    });
    const from = "198.51.100.85";
    const payer = await chain.fundPayer();
    const header = await officialPaymentHeader(
      { signer: payer, rpcUrl: chain.url, mint: chain.mint },
      await exhaustFreeQuestion(t, from),
      { ownBlockhash: true },
    );
    const raw = rawClient(context.redis.url);
    const sent = chain.localnet.calls("sendTransaction");
    chain.localnet.setConfirmationDelay(600);
    const answer = askChat(t, from, { "PAYMENT-SIGNATURE": header });
    // Once the transaction is sent (its entry written ahead), Redis holds every write for 2 s.
    while (chain.localnet.calls("sendTransaction") === sent) await Bun.sleep(5);
    await raw.call("CLIENT", "PAUSE", "2000", "WRITE");
    const response = await answer.finally(() => chain.localnet.setConfirmationDelay(0));
    expect(((await response.json()) as { code: string }).code).toBe("EXACT_SETTLEMENT_PENDING");
    // The writes the app gave up on are dropped with its connections, never run late.
    await raw.call("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
    await raw.call("CLIENT", "UNPAUSE");
    raw.disconnect();
    // Waits until the app's connection is back (it reconnects by itself).
    const credits = async (): Promise<number> =>
      walletCredits(t, payer).catch(() => Bun.sleep(50).then(credits));
    expect(await credits()).toBe(0);
    const rounds = [await reconcile(t), await reconcile(t)];
    expect(rounds.map((round) => round.credited)).toEqual([1, 0]);
    expect(await walletCredits(t, payer)).toBe(QUERIES);
    expect(await pendingCount(t)).toBe(0);
  });
});
