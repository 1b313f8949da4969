/**
 * The price of a question as a setting (PaymentTerms.unitsPerQuery), on the local chain with
 * real signed transfers, on the memory store and on Redis: at 0.003 USDC a question the payments
 * accepted are whole questions from 0.012 to 0.999, every way of paying (POST /api/payment, the
 * spec's X-Payment-Authorization, x402 v2 exact) buys received / 0.003 questions, and every 402
 * and the discovery manifest ask amounts at that price. The default price keeps today's figures.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import {
  buildAuthorization,
  createTransfer,
  readPaymentRequest,
  type X402Wallet,
} from "../../src/payments/client/payment-client.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { balancesOf, movedSince } from "../support/money-moved.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import { officialPaymentHeader, paymentRequiredOf, startChainWithFacilitator } from "../support/x402-v2.ts";

/** 0.003 USDC a question: 0.01 is not whole questions, so the smallest purchase is 0.012 (4). */
const PRICE = 3_000n;

let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(() => chain?.stop());

const redis = redisServerAvailable() ? useRedisServer() : undefined;
let prefixes = 0;
/** The store of one test: a fresh memory store, or a fresh key prefix on the shared redis-server. */
const STORES: ReadonlyArray<readonly [string, () => Pick<TestAppOptions, "store">]> = [
  ["memory", () => ({})],
  ...(redis === undefined
    ? []
    : [
        [
          "redis",
          () => ({
            store: RedisStore.layer({
              url: redis.redis.url,
              limits: { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 },
              keyPrefix: `price-${++prefixes}:`,
            }),
          }),
        ] as const,
      ]),
];

const wallet = (): X402Wallet => ({ signer: chain.payer, network: "chain-devnet", rpcUrl: chain.url });
const official = () => ({ signer: chain.payer, rpcUrl: chain.url, mint: chain.mint });
const status = async (t: TestApp, from: string) =>
  (await (await t.call("/api/status", {}, from)).json()) as { remaining: number; paid: number };

describe.each(STORES)("a price of 0.003 USDC a question (%s store)", (_name, store) => {
  const onChain = (options: TestAppOptions = {}): TestApp =>
    build({
      freeQueries: 1,
      unitsPerQuery: PRICE,
      mcpToolPrices: { search_docs: 0, read_page: 0, ask_docs: 5 },
      ...store(),
      ...options,
      ...(facilitator === undefined ? {} : { facilitator }),
      chain: chainReaderOf(chain),
    });

  test("POST /api/payment: 0.012 buys 4 questions and 0.03 buys 10, exactly", async () => {
    const t = onChain();
    const from = "198.51.100.61";
    const smallest = await chain.sendUsdc({ units: 12_000n });
    const first = await t.pay({ signature: smallest, amount: 0.012, token: "USDC" }, from);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ success: true, queriesGranted: 4 });
    const more = await chain.sendUsdc({ units: 30_000n });
    const second = await t.pay({ signature: more, amount: 0.03, token: "USDC" }, from);
    expect(await second.json()).toMatchObject({ success: true, queriesGranted: 10 });
    expect((await status(t, from)).paid).toBe(14);
  });

  test("POST /api/payment: amounts that are not whole questions at the price are refused, naming it", async () => {
    const t = onChain();
    const tooLittle = await chain.sendUsdc({ units: 10_000n });
    const low = await t.pay({ signature: tooLittle, amount: 0.01, token: "USDC" });
    expect(low.status).toBe(400);
    expect(await low.json()).toMatchObject({
      code: "INVALID_AMOUNT",
      error: "Invalid payment amount: must be from 0.012 to 0.999 USDC",
    });
    const offStep = await chain.sendUsdc({ units: 13_000n });
    const step = await t.pay({ signature: offStep, amount: 0.013, token: "USDC" });
    const body = (await step.json()) as { error: string; details: string };
    expect(body.error).toBe("Invalid payment amount: must be a multiple of 0.003 USDC");
    expect(body.details).toContain("Send an amount from 0.012 to 0.999 USDC in steps of 0.003.");
    // Refused before any credit: the client has only its free question.
    expect((await status(t, "203.0.113.7")).paid).toBe(0);
  });

  test("/api/payment/info shows the price and amounts the widget offers in whole questions", async () => {
    const info = (await (await onChain().call("/api/payment/info")).json()) as Record<string, unknown>;
    expect(info).toMatchObject({
      pricePerQuery: "0.003",
      amount: 0.012,
      amounts: [0.012, 0.051, 0.102, 0.501, 0.999],
    });
    expect((info.instructions as string[])[0]).toBe(
      "Choose an amount from 0.012 to 0.999 USDC: each 0.003 USDC buys one query (0.012 = 4 queries, 0.999 = 333 queries).",
    );
  });

  test("the spec's dialect: the chat's 402 asks 0.012 and paying it buys 4 questions, one answered", async () => {
    const t = onChain();
    const from = "198.51.100.62";
    const offer = await exhaustFreeQuestion(t, from);
    const request = await readPaymentRequest(offer);
    expect(request.max_amount_required).toBe("0.012");
    expect(request.description).toBe(
      "Questions to the docs assistant: 4 for 0.012 USDC (0.003 USDC each; more pays for more)",
    );
    const before = await chain.usdcBalance(chain.serviceWallet);
    const signature = await createTransfer(request, wallet());
    const { header } = await buildAuthorization(request, wallet(), signature);
    const paid = await askChat(t, from, { "X-Payment-Authorization": header });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { rateLimit: { remaining: number } }).rateLimit.remaining).toBe(3);
    expect((await chain.usdcBalance(chain.serviceWallet)) - before).toBe(12_000n);
    expect(t.metrics.render()).toContain("payment_queries_granted_total 4");
  });

  test("x402 v2 exact: the 402 offers 12000 base units and the official client's payment buys 4 questions", async () => {
    const t = onChain();
    const from = "198.51.100.63";
    const offer = await exhaustFreeQuestion(t, from);
    expect(paymentRequiredOf(offer).accepts[0]).toMatchObject({ scheme: "exact", amount: "12000" });
    const header = await officialPaymentHeader(official(), offer);
    const before = await balancesOf(chain, chain.payer.address);
    const paid = await askChat(t, from, { "PAYMENT-SIGNATURE": header });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { rateLimit: { remaining: number } }).rateLimit.remaining).toBe(3);
    // The payer's 12,000 base units to the service, and one sponsored settlement's fee.
    expect(await movedSince(chain, chain.payer.address, before)).toEqual({
      payer: -12_000n,
      service: 12_000n,
      feePayerSol: -10_001n,
    });
    expect(t.metrics.render()).toContain("payment_queries_granted_total 4");
  });

  test("the discovery manifest asks the chat's smallest purchase and ask_docs' 5 questions at the price", async () => {
    const manifest = (await (await onChain().call("/.well-known/x402.json")).json()) as {
      items: ReadonlyArray<{ resource: { url: string }; accepts: ReadonlyArray<{ amount: string }> }>;
    };
    const amounts = manifest.items.map((item) => [
      new URL(item.resource.url).pathname,
      item.accepts[0]?.amount,
    ]);
    expect(amounts).toEqual([
      ["/api/chat", "12000"],
      ["/mcp", "15000"],
    ]);
  });
});

describe("the default price keeps today's figures", () => {
  const onChain = (): TestApp =>
    build({
      freeQueries: 1,
      ...(facilitator === undefined ? {} : { facilitator }),
      chain: chainReaderOf(chain),
    });

  test("0.001 USDC a question: payment info, the 402's 0.01 for 10, and 0.012 buying 12", async () => {
    const t = onChain();
    const info = (await (await t.call("/api/payment/info")).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ pricePerQuery: "0.001", amount: 0.01, amounts: [0.01, 0.05, 0.1, 0.5, 1] });
    expect((info.instructions as string[])[0]).toBe(
      "Choose an amount from 0.01 to 1.00 USDC: each 0.001 USDC buys one query (0.01 = 10 queries, 1.00 = 1000 queries).",
    );
    const offer = await exhaustFreeQuestion(t, "198.51.100.64");
    expect(paymentRequiredOf(offer.clone()).accepts[0]?.amount).toBe("10000");
    expect((await readPaymentRequest(offer)).description).toBe(
      "Questions to the docs assistant: 10 for 0.01 USDC (0.001 USDC each; more pays for more)",
    );
    const signature = await chain.sendUsdc({ units: 12_000n });
    const paid = await t.pay({ signature, amount: 0.012, token: "USDC" });
    expect(await paid.json()).toMatchObject({ success: true, queriesGranted: 12 });
  });
});
