/**
 * /api/chat with x402's payment-identifier, paid by the official client (`@x402/core` +
 * `@x402/svm`, the id added with `@x402/extensions`' helper): the 402 declares the extension;
 * a paid response lost on the way is got back by resending the same payload, on the other
 * instance of two sharing one Redis, and the payment is charged once (the payer's USDC, the
 * service wallet's USDC and the fee payer's SOL, exactly); the same id with another payload or
 * another question is 409; with X402_PAYMENT_ID_REQUIRED a payload without an id is 400.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import {
  generatePaymentId,
  isPaymentIdentifierRequired,
  PAYMENT_IDENTIFIER,
  validatePaymentIdentifier,
} from "@x402/extensions/payment-identifier";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { type Balances, balancesOf, movedSince as moved, ONE_PAYMENT } from "../support/money-moved.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import {
  namedPaymentHeader,
  officialPaymentHeader,
  paymentRequiredOf,
  settlementOf,
  startChainWithFacilitator,
} from "../support/x402-v2.ts";

let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions & { readonly required?: boolean } = {}): TestApp => {
  if (facilitator === undefined) throw new Error("the local chain's facilitator did not start");
  const { required = false, ...rest } = options;
  return build({
    freeQueries: 1,
    ...rest,
    facilitator: { ...facilitator, paymentIdRequired: required },
    chain: chainReaderOf(chain),
  });
};
const wallet = (signer: KeyPairSigner) => ({ signer, rpcUrl: chain.url, mint: chain.mint });
const paid = (t: TestApp, from: string, header: string, extra: Record<string, unknown> = {}) =>
  askChat(t, from, { "PAYMENT-SIGNATURE": header }, extra);

/** What a payment can move: the payer's and the service's USDC, the fee payer's SOL. */
const balances = (payer: KeyPairSigner) => balancesOf(chain, payer.address);
const movedSince = (before: Balances, payer: KeyPairSigner) => moved(chain, payer.address, before);

/** A funded payer, its header paying the 402 `app` answers `from` (free question used up) under a fresh payment id, and the balances before. */
const namedPaymentFrom = async (app: TestApp, from: string) => {
  const payer = await chain.fundPayer();
  const header = await namedPaymentHeader(
    wallet(payer),
    await exhaustFreeQuestion(app, from),
    generatePaymentId(),
  );
  return { payer, header, before: await balances(payer) };
};

describe("the 402 declares payment-identifier", () => {
  test("optional by default, as the spec's schema; X402_PAYMENT_ID_REQUIRED makes it required", async () => {
    const declared = paymentRequiredOf(await exhaustFreeQuestion(onChain(), "198.51.100.40")).extensions?.[
      PAYMENT_IDENTIFIER
    ];
    expect(validatePaymentIdentifier(declared)).toEqual({ valid: true });
    expect(isPaymentIdentifierRequired(declared)).toBe(false);
    const strict = paymentRequiredOf(await exhaustFreeQuestion(onChain({ required: true }), "198.51.100.41"))
      .extensions?.[PAYMENT_IDENTIFIER];
    expect(isPaymentIdentifierRequired(strict)).toBe(true);
  });
});

describe("one instance (memory store)", () => {
  test("a resend of a paid request gets the first answer back and is charged once", async () => {
    const t = onChain();
    const from = "198.51.100.42";
    const { payer, header, before } = await namedPaymentFrom(t, from);
    const first = await paid(t, from, header);
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const again = await paid(t, from, header);
    expect(again.status).toBe(200);
    expect(again.headers.get("Payment-Identifier-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(settlementOf(again)).toEqual(settlementOf(first));
    expect(await movedSince(before, payer)).toEqual(ONE_PAYMENT);
  });

  test("a streamed answer is kept as its receipt: the resend gets the settlement and PAID_RESULT_NOT_KEPT", async () => {
    const t = onChain();
    const from = "198.51.100.48";
    const { payer, header, before } = await namedPaymentFrom(t, from);
    const streamed = await paid(t, from, header, { stream: true });
    expect(streamed.headers.get("Content-Type")).toContain("text/event-stream");
    expect(await streamed.text()).toContain("event:");
    const again = await paid(t, from, header, { stream: true });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ success: true, code: "PAID_RESULT_NOT_KEPT" });
    expect(settlementOf(again)).toEqual(settlementOf(streamed));
    expect(await movedSince(before, payer)).toEqual(ONE_PAYMENT);
  });

  test("an id that breaks the spec's format is 400, nothing moved", async () => {
    const t = onChain();
    const from = "198.51.100.43";
    const payer = await chain.fundPayer();
    const response = await exhaustFreeQuestion(t, from);
    // The helper refuses bad ids, so the payload is bent after it is made.
    const header = await namedPaymentHeader(wallet(payer), response, generatePaymentId());
    const bent = Buffer.from(
      Buffer.from(header, "base64")
        .toString()
        .replace(/"id":"pay_[0-9a-f]+"/, '"id":"short!"'),
    ).toString("base64");
    const before = await balances(payer);
    const refused = await paid(t, from, bent);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "PAYMENT_ID_INVALID" });
    expect(await movedSince(before, payer)).toEqual({ payer: 0n, service: 0n, feePayerSol: 0n });
  });

  test("required: a payload without an id is 400 and moves nothing; with one it pays", async () => {
    const t = onChain({ required: true });
    const from = "198.51.100.44";
    const payer = await chain.fundPayer();
    const offer = await exhaustFreeQuestion(t, from);
    const before = await balances(payer);
    const unnamed = await paid(t, from, await officialPaymentHeader(wallet(payer), offer));
    expect(unnamed.status).toBe(400);
    expect(await unnamed.json()).toMatchObject({ success: false, code: "PAYMENT_ID_REQUIRED" });
    expect(await movedSince(before, payer)).toEqual({ payer: 0n, service: 0n, feePayerSol: 0n });
    const named = await paid(t, from, await namedPaymentHeader(wallet(payer), offer, generatePaymentId()));
    expect(named.status).toBe(200);
    expect(await movedSince(before, payer)).toEqual(ONE_PAYMENT);
  });
});

describe.skipIf(!redisServerAvailable())("two instances sharing Redis", () => {
  const shared = useRedisServer();

  test("the response lost on one instance is got back from the other, charged once", async () => {
    const [first, second] = twoOnRedis(shared.redis.url, `chat-pid-${crypto.randomUUID()}:`, (store) =>
      onChain({ store }),
    );
    const from = "198.51.100.45";
    const { payer, header, before } = await namedPaymentFrom(first, from);
    // The first instance serves it; the client never reads this response (the connection dropped).
    const lost = await paid(first, from, header);
    expect(lost.status).toBe(200);
    const lostBody = await lost.text();
    const resent = await paid(second, from, header);
    expect(resent.status).toBe(200);
    expect(await resent.text()).toBe(lostBody);
    expect(settlementOf(resent)).toMatchObject({ success: true, payer: payer.address });
    expect(await movedSince(before, payer)).toEqual(ONE_PAYMENT);
    // One question answered of the ten bought: the resend spent nothing.
    const status = (await (await second.call("/api/status", {}, from)).json()) as { remaining: number };
    expect(status.remaining).toBe(9);
  });

  test("the same id with another question or another payload is 409, nothing moved", async () => {
    const [first, second] = twoOnRedis(shared.redis.url, `chat-pid-${crypto.randomUUID()}:`, (store) =>
      onChain({ store }),
    );
    const from = "198.51.100.46";
    const payer = await chain.fundPayer();
    const id = generatePaymentId();
    const header = await namedPaymentHeader(wallet(payer), await exhaustFreeQuestion(first, from), id);
    expect((await paid(first, from, header)).status).toBe(200);
    const before = await balances(payer);
    const otherQuestion = await paid(second, from, header, { message: "How do I read a file?" });
    expect(otherQuestion.status).toBe(409);
    expect(await otherQuestion.json()).toMatchObject({ success: false, code: "PAYMENT_ID_CONFLICT" });
    // A fresh payload (another 402, another transaction) named with the same id.
    const other = await namedPaymentHeader(
      wallet(payer),
      await exhaustFreeQuestion(second, "198.51.100.47"),
      id,
    );
    const conflict = await paid(second, from, other);
    expect(conflict.status).toBe(409);
    expect(await movedSince(before, payer)).toEqual({ payer: 0n, service: 0n, feePayerSol: 0n });
  });
});
