/**
 * /api/chat paid with x402 v2 reserves the payment request BEFORE it moves any money, on the
 * local chain with the official client's payloads: two different transactions for one
 * payment_id (two tabs, a re-signed retry, two instances) settle one of them only; a failed
 * settlement releases the reservation to the same payload; an instance that dies between
 * settling and crediting leaves a lease that lapses, and the retry of the same payload is
 * credited once without sending anything. Balances are read on chain; submissions are counted
 * at the chain's RPC.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import { LEASE_MS } from "../../core/payments/x402-ledger.ts";
import { STATUS_CACHE_SLOTS } from "../../dev/localnet/rpc-transactions.ts";
import { runOutcome } from "../../src/hono-kit/run-effect.ts";
import { CHAT_BINDING } from "../../src/http/chat-payment.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { creditOffer } from "../../src/payments/credit-offer.ts";
import { chatResource } from "../../src/payments/priced-resources.ts";
import type { RunPayment } from "../../src/payments/server/dialect.ts";
import { checkExactPayment, type ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { reserveChecked } from "../../src/payments/v2/exact-reservation.ts";
import { startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import { chainReaderOf, startTestChain, type TestChain } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import { officialPaymentHeader, settlementOf } from "../support/x402-v2.ts";

const PRICE = 10_000n;
let chain: TestChain;
let facilitator: ExactFacilitator;
const build = testApps(afterAll);
beforeAll(async () => {
  chain = await startTestChain();
  await chain.localnet.mintTokens(chain.serviceWallet, 0n);
  const started = await startFacilitator({
    rpcUrl: chain.url,
    feePayer: chain.localnet.feePayer,
    logger: memoryLogger().logger,
  });
  if (started === undefined) throw new Error("the local chain's fee payer did not start a facilitator");
  facilitator = started;
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}): TestApp =>
  build({
    freeQueries: 1,
    ...options,
    facilitator,
    chain: chainReaderOf(chain),
  });
const ask = (t: TestApp, from: string, header: string) => askChat(t, from, { "PAYMENT-SIGNATURE": header });
const remaining = async (t: TestApp, from: string) =>
  ((await (await t.call("/api/status", {}, from)).json()) as { remaining: number }).remaining;
const submissions = () => chain.localnet.calls("sendTransaction");

/** A funded payer, its USDC before paying, and `count` distinct signed payloads for one 402. */
const payloads = async (t: TestApp, from: string, count: number) => {
  const payer = await chain.fundPayer();
  const wallet = { signer: payer, rpcUrl: chain.url, mint: chain.mint };
  const offer = await exhaustFreeQuestion(t, from);
  const headers: Array<string> = [];
  // Each payload is signed on a fresh blockhash: a different transaction for the same payment_id.
  for (let i = 0; i < count; i += 1)
    headers.push(await officialPaymentHeader(wallet, offer, { ownBlockhash: true }));
  expect(new Set(headers).size).toBe(count);
  return { payer, headers, before: await chain.usdcBalance(payer.address) };
};

const paidOnce = async (payer: KeyPairSigner, before: bigint) =>
  expect(before - (await chain.usdcBalance(payer.address))).toBe(PRICE);

/**
 * `payloads` distinct transactions for one 402, each sent `copies` times to every instance at
 * once, while confirmation takes a while (as on a cluster): exactly one is answered and
 * credited, one transaction is submitted; every other transaction is refused as already used
 * (or, while the winner settles, as its payer busy), and the winner's own copies as in progress
 * (or already used once it is served).
 */
const race = async (
  instances: ReadonlyArray<TestApp>,
  from: string,
  payloadCount: number,
  copies: number,
) => {
  const [first] = instances;
  if (first === undefined) throw new Error("no instance");
  const { payer, headers, before } = await payloads(first, from, payloadCount);
  const sent = submissions();
  chain.localnet.setConfirmationDelay(150);
  const answered = await Promise.all(
    headers.flatMap((header) =>
      Array.from({ length: copies }, () =>
        instances.map(async (t) => ({ header, response: await ask(t, from, header) })),
      ).flat(),
    ),
  ).finally(() => chain.localnet.setConfirmationDelay(0));
  const winners = answered.filter(({ response }) => response.status === 200);
  expect(winners).toHaveLength(1);
  const losers = answered.filter(({ response }) => response.status === 403);
  expect(losers).toHaveLength(answered.length - 1);
  for (const { header, response } of losers) {
    const { code } = (await response.json()) as { code: string };
    // The winner's copies wait for it; another transaction of the same payer waits for the payer,
    // or, past the payment_id's few distinct transactions, is refused before any simulation.
    const expected =
      header === winners[0]?.header
        ? ["EXACT_PAYMENT_IN_PROGRESS"]
        : ["EXACT_PAYER_BUSY", "PAYMENT_LOOKUPS_EXHAUSTED"];
    expect([...expected, "PAYMENT_ALREADY_USED"]).toContain(code);
  }
  expect(submissions() - sent).toBe(1);
  await paidOnce(payer, before);
  expect(await remaining(first, from)).toBe(9);
};

describe("x402 v2 on /api/chat: reserve, settle, then credit", () => {
  test("two different transactions for one payment_id raced: one submitted, the payer pays once, credited once", async () => {
    await race([onChain()], "198.51.100.61", 4, 1);
  });

  test("a failed settlement releases the reservation: another transaction is still refused, the same payload then settles once", async () => {
    const t = onChain();
    const from = "198.51.100.62";
    const { payer, headers, before } = await payloads(t, from, 2);
    const [header = "", other = ""] = headers;
    chain.localnet.setFaults({ sendTransaction: "http-500", getSignatureStatuses: "http-500" });
    const failed = await ask(t, from, header);
    chain.localnet.setFaults({});
    expect(failed.status).toBe(403);
    expect(await failed.json()).toMatchObject({ code: "EXACT_SETTLEMENT_FAILED", retryable: true });
    expect(settlementOf(failed)).toMatchObject({ success: false, errorReason: "exact-settlement-failed" });
    expect(t.metrics.render()).toContain("x402_settlement_failures_total 1");
    expect(await chain.usdcBalance(payer.address)).toBe(before);
    expect(await remaining(t, from)).toBe(0);

    const sent = submissions();
    const refused = await ask(t, from, other);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "PAYMENT_ALREADY_USED" });
    expect(submissions()).toBe(sent);

    const retried = await ask(t, from, header);
    expect(retried.status).toBe(200);
    expect(settlementOf(retried)).toMatchObject({ success: true, payer: payer.address });
    expect((await ask(t, from, header)).status).toBe(403);
    await paidOnce(payer, before);
    expect(await remaining(t, from)).toBe(9);
  });

  test("the same payload raced on one instance: submitted once, credited once", async () => {
    await race([onChain()], "198.51.100.63", 1, 6);
  });
});

/**
 * The death of an instance between settling and crediting, as its steps: the payload checked,
 * reserved (at a time one lease ago, so the lease has lapsed now) and settled on chain, the
 * credit never made. Then the chain moves on past its recent-status cache, as it would in the
 * lease's two minutes.
 */
const settleThenDie = async (t: TestApp, header: string) => {
  const checked = await reserveAsIf(t, header, LEASE_MS + 1);
  expect(
    await facilitator.feePayer.submit(checked.cosigned, { sentBefore: false, fee: checked.fee }),
  ).toEqual({ ok: true, sentNow: true });
  chain.localnet.skipBlocks(STATUS_CACHE_SLOTS + 1);
};

/** Reserves a checked payload as an instance would, `ago` ms in the past. */
const reserveAsIf = async (t: TestApp, header: string, ago: number) => {
  const run: RunPayment = async (effect) => runOutcome(t.runtime, effect);
  const offer = await runOutcome(t.runtime, creditOffer(chatResource(1_000n)));
  if (!offer.ok) throw new Error("no chat offer");
  const checked = await checkExactPayment(header, offer.value, facilitator, run, "198.51.100.99");
  if (!checked.ok) throw new Error(`the payload was refused: ${JSON.stringify(checked.error)}`);
  const reserved = await reserveChecked(
    { ...checked.value, checkedAt: Date.now() - ago },
    { binding: CHAT_BINDING, run },
  );
  expect(reserved.ok).toBe(true);
  return checked.value;
};

const recoversAfterDeath = async (dead: TestApp, survivor: TestApp, from: string) => {
  const { payer, headers, before } = await payloads(dead, from, 2);
  const [header = "", other = ""] = headers;
  await settleThenDie(dead, header);
  await paidOnce(payer, before);
  expect(await remaining(survivor, from)).toBe(0);
  // The lapsed reservation is still this transaction's: another one is refused, never sent.
  const sent = submissions();
  expect((await ask(survivor, from, other)).status).toBe(403);
  const recovered = await ask(survivor, from, header);
  expect(recovered.status).toBe(200);
  expect(settlementOf(recovered)).toMatchObject({ success: true, payer: payer.address });
  expect(submissions()).toBe(sent);
  expect((await ask(survivor, from, header)).status).toBe(403);
  await paidOnce(payer, before);
  expect(await remaining(survivor, from)).toBe(9);
};

describe("an instance that dies between settling and crediting", () => {
  test("while its lease is live, the same payload is told to wait (retryable), another is refused; nothing is sent", async () => {
    const t = onChain();
    const from = "198.51.100.68";
    const { payer, headers, before } = await payloads(t, from, 2);
    const [header = "", other = ""] = headers;
    await reserveAsIf(t, header, 0);
    const sent = submissions();
    const waiting = await ask(t, from, header);
    expect(waiting.status).toBe(403);
    expect(waiting.headers.get("Retry-After")).toBe("5");
    expect(await waiting.json()).toMatchObject({ code: "EXACT_PAYMENT_IN_PROGRESS", retryable: true });
    const refused = await ask(t, from, other);
    expect(await refused.json()).toMatchObject({ code: "PAYMENT_ALREADY_USED", retryable: false });
    expect(submissions()).toBe(sent);
    expect(await chain.usdcBalance(payer.address)).toBe(before);
  });

  test("the retry of the same payload after the lease is credited once, nothing sent again", async () => {
    const t = onChain();
    await recoversAfterDeath(t, t, "198.51.100.64");
  });
});

describe.skipIf(!redisServerAvailable())("x402 v2 on /api/chat: two instances sharing Redis", () => {
  const shared = useRedisServer();
  const pair = (prefix: string) => twoOnRedis(shared.redis.url, prefix, (store) => onChain({ store }));

  test("two different transactions for one payment_id raced across both: one submitted, paid once, credited once", async () => {
    await race(pair("reserve-race:"), "198.51.100.65", 4, 1);
  });

  test("one instance settles and dies; the other credits the retry of the same payload once", async () => {
    const [dead, survivor] = pair("reserve-death:");
    await recoversAfterDeath(dead, survivor, "198.51.100.66");
  });

  test("the same payload raced across both: submitted once, credited once", async () => {
    await race(pair("reserve-same:"), "198.51.100.67", 1, 4);
  });
});
