/**
 * /api/chat paid in-band with the HTTP 402 protocol, real transfers on the local chain: the
 * exhausted quota's 402 is a full payment request (and still the chat's own body), a retry
 * with X-Payment-Authorization buys the queries and is answered in the same call, once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { paymentMemo } from "../../core/payments/x402.ts";
import { decodeReceiptHeader } from "../../core/payments/x402-receipt.ts";
import { WalletCredits } from "../../core/ports/wallet-credits-store.ts";
import {
  buildAuthorization,
  createTransfer,
  readPaymentRequest,
  wrapFetchWithPayment,
  type X402Wallet,
} from "../../src/payments/client/payment-client.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import { expiredRequest } from "../support/expired-request.ts";
import { chainReaderOf, startTestChain, type TestChain } from "../support/localnet.ts";
import { balancesOf, movedSince } from "../support/money-moved.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";

let chain: TestChain;
const build = testApps(afterAll);
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}): TestApp =>
  build({
    freeQueries: 1,
    ...options,
    chain: chainReaderOf(chain),
  });
const wallet = (): X402Wallet => ({ signer: chain.payer, network: "chain-devnet", rpcUrl: chain.url });
const ask = (t: TestApp, from: string, header?: string, extra: Record<string, unknown> = {}) =>
  askChat(t, from, header === undefined ? {} : { "X-Payment-Authorization": header }, extra);
const exhaust = exhaustFreeQuestion;
/** The insights report (the admin API waits for this instance's pending recordings). */
const waitForInsights = async (t: TestApp, token: string) => {
  const response = await t.call("/api/admin/insights", { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as { revenue: Record<string, unknown> };
};
/** Pays the 402's request with `units` (default its price) and returns the header. */
const payFor = async (response: Response, units?: bigint) => {
  const request = await readPaymentRequest(response);
  const signature =
    units === undefined
      ? await createTransfer(request, wallet())
      : await chain.sendUsdc({ units, memo: paymentMemo(request.payment_id) });
  return { request, signature, header: (await buildAuthorization(request, wallet(), signature)).header };
};

describe("/api/chat 402: a payment request, and the chat's own fields", () => {
  test("every field of the spec's request, the error object, rateLimit and payment", async () => {
    const t = onChain();
    const body = (await (await exhaust(t, "198.51.100.1")).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      max_amount_required: "0.01",
      asset_type: "SPL",
      asset_address: chain.mint,
      payment_address: chain.serviceWallet,
      network: "chain-devnet",
      resource: "/api/chat",
      Code: "PAYMENT_REQUIRED",
      success: false,
      code: "PAYMENT_REQUIRED",
      rateLimit: { remaining: 0, requiresPayment: true },
      payment: { recipient: chain.serviceWallet, usdcMint: chain.mint, paymentEndpoint: "/api/payment" },
    });
    for (const field of ["expires_at", "nonce", "payment_id", "description", "Message", "Details"])
      expect(body).toHaveProperty(field);
  });
});

describe("/api/chat paid with X-Payment-Authorization", () => {
  test("the automatic client pays 0.01 and gets its answer in the same call: 10 bought, 1 spent", async () => {
    const t = onChain();
    const from = "198.51.100.2";
    expect((await ask(t, from)).status).toBe(200);
    const viaApp = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      return t.app.request(new URL(request.url).pathname, request, { remoteAddress: from });
    }) as typeof fetch;
    const paid: string[] = [];
    const payingFetch = wrapFetchWithPayment(wallet(), {
      AllowLocal: true,
      fetch: viaApp,
      onPaid: ({ signature }) => paid.push(signature),
    });
    const response = await payingFetch("https://docs-chat.example/api/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "How do I write a file?" }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      success: boolean;
      response: string;
      rateLimit: { remaining: number };
    };
    expect(body.success).toBe(true);
    expect(body.response.length).toBeGreaterThan(0);
    expect(body.rateLimit.remaining).toBe(9);
    expect(decodeReceiptHeader(response.headers.get("X-Payment-Receipt") ?? "")).toMatchObject({
      transaction_hash: paid[0],
      amount: "0.01",
      resource: "/api/chat",
    });
    expect(t.metrics.render()).toContain("payment_queries_granted_total 10");
  });

  test("paying more buys more (0.001 USDC each); the replayed header buys nothing", async () => {
    const t = onChain();
    const from = "198.51.100.3";
    const before = await balancesOf(chain, chain.payer.address);
    const { header } = await payFor(await exhaust(t, from), 50_000n);
    const answered = await ask(t, from, header);
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { rateLimit: { remaining: number } }).rateLimit.remaining).toBe(49);
    const replayed = await ask(t, from, header);
    expect(replayed.status).toBe(403);
    expect(await replayed.json()).toMatchObject({
      success: false,
      code: "PAYMENT_ALREADY_USED",
      Code: "PAYMENT_VERIFICATION_FAILED",
      Details: { reason: "payment-already-used" },
    });
    const status = (await (await t.call("/api/status", {}, from)).json()) as { remaining: number };
    expect(status.remaining).toBe(49);
    // Exactly what moved: the payer's transfer (it pays its own fee in this dialect), once.
    expect(await movedSince(chain, chain.payer.address, before)).toEqual({
      payer: -50_000n,
      service: 50_000n,
      feePayerSol: 0n,
    });
  });

  test("the owner's insights count the payment under the x402 dialect, with what was received", async () => {
    const token = "x402-insights-token-0123456789";
    const t = onChain({ adminToken: token });
    const { header } = await payFor(await exhaust(t, "198.51.100.9"), 20_000n);
    expect((await ask(t, "198.51.100.9", header)).status).toBe(200);
    const report = await waitForInsights(t, token);
    expect(report.revenue).toMatchObject({
      units: 20_000,
      payments: 1,
      queriesBought: 20,
      byDialect: [
        { dialect: "signature", payments: 0 },
        { dialect: "x402", payments: 1, units: 20_000, usdc: "0.02" },
        { dialect: "x402-v2", payments: 0 },
        { dialect: "x402-mcp", payments: 0 },
      ],
    });
  });

  test("a bad message is refused before the payment is touched; the header still works after", async () => {
    const t = onChain();
    const from = "198.51.100.4";
    const { header } = await payFor(await exhaust(t, from));
    const empty = await ask(t, from, header, { message: "   " });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "Message cannot be empty" });
    expect((await ask(t, from, header)).status).toBe(200);
  });

  test("streamed: the answer as SSE with the receipt header", async () => {
    const t = onChain();
    const from = "198.51.100.5";
    const { header, signature } = await payFor(await exhaust(t, from));
    const response = await ask(t, from, header, { stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/event-stream");
    expect(decodeReceiptHeader(response.headers.get("X-Payment-Receipt") ?? "")?.transaction_hash).toBe(
      signature,
    );
    const text = await response.text();
    expect(text).toContain("event: done");
    expect(text).toContain('"remaining":9');
  });

  test("one transfer buys once, whichever way it is presented", async () => {
    const t = onChain();
    const from = "198.51.100.6";
    const { header, signature } = await payFor(await exhaust(t, from));
    // Seen on chain before its header arrives, the transfer cannot be claimed on POST /api/payment
    // (by anyone: its memo binds it to the payment request).
    const frontRun = await t.pay({ signature, amount: 0.01, token: "USDC" }, "203.0.113.99");
    expect(frontRun.status).toBe(400);
    expect(await frontRun.json()).toMatchObject({ code: "MEMO_RESERVED" });
    expect((await ask(t, from, header)).status).toBe(200);
    const claimed = await t.pay({ signature, amount: 0.01, token: "USDC" }, from);
    expect(await claimed.json()).toMatchObject({ code: "SIGNATURE_ALREADY_USED" });

    // And the other way round: a transfer granted by POST /api/payment cannot pay a chat request.
    const other = "198.51.100.7";
    const request = await readPaymentRequest(await exhaust(t, other));
    const sent = await chain.sendUsdc({ units: 10_000n });
    expect((await t.pay({ signature: sent, amount: 0.01, token: "USDC" }, other)).status).toBe(200);
    const { header: reused } = await buildAuthorization(request, wallet(), sent);
    expect(await (await ask(t, other, reused)).json()).toMatchObject({
      Details: { reason: "signature-already-used" },
    });
  });

  test("a transfer that lands 100 s after expires_at: credited to the paying wallet and answered, once", async () => {
    const t = onChain();
    const from = "198.51.100.8";
    const request = await readPaymentRequest(await exhaust(t, from));
    // A wallet of its own, so its balance is exactly what this transfer bought.
    const payer = await chain.fundPayer();
    chain.localnet.setClockOffsetMs(400_000);
    const late = await chain
      .sendUsdc({ units: 10_000n, memo: paymentMemo(request.payment_id), from: payer })
      .finally(() => chain.localnet.setClockOffsetMs(0));
    const { header } = await buildAuthorization(request, { ...wallet(), signer: payer }, late);
    const response = await ask(t, from, header);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; rateLimit: { remaining: number } };
    // 10 questions at 0.001 USDC, one spent on this answer: the wallet's balance.
    expect(body).toMatchObject({ success: true, rateLimit: { remaining: 9 } });
    expect(decodeReceiptHeader(response.headers.get("X-Payment-Receipt") ?? "")).toMatchObject({
      transaction_hash: late,
      payer: payer.address,
    });
    // Presented again: nothing credited twice.
    expect((await ask(t, from, header)).status).toBe(403);
    const status = (await (await t.call("/api/status", {}, from)).json()) as { remaining: number };
    expect(status.remaining).toBe(9);
    // The credits are the paying wallet's (they follow it), not the address's.
    const held = await t.runtime.runPromise(
      Effect.gen(function* () {
        return yield* (yield* WalletCredits).view(payer.address, Date.now());
      }),
    );
    expect(held.paid).toBe(9);
  });

  test("a request presented 20 minutes after expires_at (past its grace) is credited too", async () => {
    const t = onChain();
    const from = "198.51.100.10";
    const fresh = await readPaymentRequest(await exhaust(t, from));
    const request = await expiredRequest(t.runtime, fresh, "POST", Date.now() - 20 * 60_000);
    const late = await chain.sendUsdc({ units: 20_000n, memo: paymentMemo(request.payment_id) });
    const { header } = await buildAuthorization(request, wallet(), late);
    const response = await ask(t, from, header);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { rateLimit: { remaining: number } }).rateLimit.remaining).toBe(19);
  });
});

describe.skipIf(!redisServerAvailable())("/api/chat on two instances sharing Redis", () => {
  const shared = useRedisServer();

  test("one header raced across both: one grant, one answer bought", async () => {
    const [first, second] = twoOnRedis(shared.redis.url, "chat-x402:", (store) => onChain({ store }));
    const from = "198.51.100.9";
    const { header } = await payFor(await exhaust(first, from));
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => ask(i % 2 === 0 ? first : second, from, header)),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 403)).toHaveLength(9);
    const status = (await (await second.call("/api/status", {}, from)).json()) as { remaining: number };
    expect(status.remaining).toBe(9);
  });
  test("one late transfer raced across both: credited once", async () => {
    const [first, second] = twoOnRedis(shared.redis.url, "chat-x402-late:", (store) => onChain({ store }));
    const from = "198.51.100.11";
    const request = await readPaymentRequest(await exhaust(first, from));
    chain.localnet.setClockOffsetMs(400_000);
    const late = await chain
      .sendUsdc({ units: 10_000n, memo: paymentMemo(request.payment_id) })
      .finally(() => chain.localnet.setClockOffsetMs(0));
    const { header } = await buildAuthorization(request, wallet(), late);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => ask(i % 2 === 0 ? first : second, from, header)),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 403)).toHaveLength(5);
    const status = (await (await second.call("/api/status", {}, from)).json()) as { remaining: number };
    expect(status.remaining).toBe(9);
  });
});
