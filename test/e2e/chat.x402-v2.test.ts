/**
 * /api/chat paid with x402 v2 (scheme exact, this service as facilitator) on the local chain:
 * the exhausted quota's 402 carries PAYMENT-REQUIRED; the official client (`@x402/fetch` +
 * `@x402/svm`) pays and gets its answer and a PAYMENT-RESPONSE in the same call; a replay buys
 * nothing; one payload raced across two instances on one real Redis credits once, moves money once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import { memoryLogger } from "../../src/observability/log.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import {
  officialFetch,
  officialPaymentHeader,
  paymentRequiredOf,
  settlementOf,
  startChainWithFacilitator,
} from "../support/x402-v2.ts";

const ADMIN_TOKEN = "an-admin-token-long-enough-1234567890";
let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}): TestApp =>
  build({
    freeQueries: 1,
    adminToken: ADMIN_TOKEN,
    ...options,
    ...(facilitator === undefined ? {} : { facilitator }),
    chain: chainReaderOf(chain),
  });
const wallet = (signer: KeyPairSigner) => ({ signer, rpcUrl: chain.url, mint: chain.mint });
const question = { message: "How do I write a file?" };
const ask = (t: TestApp, from: string, header?: string) =>
  askChat(t, from, header === undefined ? {} : { "PAYMENT-SIGNATURE": header });
const exhaust = exhaustFreeQuestion;

describe("/api/chat paid with x402 v2", () => {
  test("the exhausted quota's 402 offers the exact scheme for 0.01 USDC", async () => {
    const offer = paymentRequiredOf(await exhaust(onChain(), "198.51.100.21")).accepts[0];
    expect(offer).toMatchObject({
      scheme: "exact",
      amount: "10000",
      asset: chain.mint,
      payTo: chain.serviceWallet,
      extra: { feePayer: chain.localnet.feePayer.address },
    });
  });

  test("the official client pays and is answered in the same call: 10 bought, 1 spent, recorded as x402-v2", async () => {
    const t = onChain();
    const from = "198.51.100.22";
    expect((await ask(t, from)).status).toBe(200);
    const payer = await chain.fundPayer();
    const before = await chain.usdcBalance(chain.serviceWallet);
    const viaApp = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      return t.app.request(new URL(request.url).pathname, request, { remoteAddress: from });
    }) as typeof fetch;
    const client = officialFetch(wallet(payer), viaApp);
    const response = await client("https://docs-chat.example/api/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(question),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; rateLimit: { remaining: number } };
    expect(body.success).toBe(true);
    expect(body.rateLimit.remaining).toBe(9);
    expect(settlementOf(response)).toMatchObject({ success: true, payer: payer.address });
    expect((await chain.usdcBalance(chain.serviceWallet)) - before).toBe(10_000n);
    expect(t.metrics.render()).toContain("payment_queries_granted_total 10");
    const insights = await t.call("/api/admin/insights", {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(((await insights.json()) as { revenue: unknown }).revenue).toMatchObject({
      units: 10_000,
      payments: 1,
      queriesBought: 10,
      byDialect: [
        { dialect: "signature", payments: 0 },
        { dialect: "x402", payments: 0 },
        { dialect: "x402-v2", payments: 1, units: 10_000, usdc: "0.01" },
        { dialect: "x402-mcp", payments: 0 },
      ],
    });
  });

  test("the same payload again buys nothing and moves nothing", async () => {
    const t = onChain();
    const from = "198.51.100.23";
    const payer = await chain.fundPayer();
    const header = await officialPaymentHeader(wallet(payer), await exhaust(t, from));
    expect((await ask(t, from, header)).status).toBe(200);
    const before = await chain.usdcBalance(chain.serviceWallet);
    const replayed = await ask(t, from, header);
    expect(replayed.status).toBe(403);
    expect(await replayed.json()).toMatchObject({ success: false, code: "PAYMENT_ALREADY_USED" });
    expect(await chain.usdcBalance(chain.serviceWallet)).toBe(before);
  });

  test("a payload for a request this service never issued is refused, nothing moved", async () => {
    const t = onChain();
    const from = "198.51.100.24";
    await exhaust(t, from);
    const payer = await chain.fundPayer();
    const other = onChain();
    const header = await officialPaymentHeader(wallet(payer), await exhaust(other, "198.51.100.25"));
    // Issued by another service's store: unknown here.
    const response = await ask(t, from, header);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "PAYMENT_UNKNOWN" });
  });
});

describe("without a fee payer", () => {
  test("x402 v2 is not offered, and one startup line says so", async () => {
    const { logger, lines } = memoryLogger();
    expect(await startFacilitator({ rpcUrl: chain.url, feePayer: undefined, logger })).toBeUndefined();
    expect(lines.map((line) => line.msg)).toEqual([
      "x402 v2 (PAYMENT-SIGNATURE) not offered: X402_FEE_PAYER_SECRET_KEY is not set",
    ]);
    const t = build({
      freeQueries: 1,
      chain: chainReaderOf(chain),
    });
    const response = await exhaust(t, "198.51.100.30");
    expect(response.headers.get("PAYMENT-REQUIRED")).toBeNull();
    expect(((await response.json()) as { payment_id: string }).payment_id).toStartWith("pay_");
  });

  test("a key in either form starts it; the key is in no line", async () => {
    const { logger, lines } = memoryLogger();
    const secret = JSON.stringify(Array.from(chain.localnet.feePayerSecretKey));
    const started = await startFacilitator({ rpcUrl: chain.url, feePayer: secret, logger });
    expect(started?.feePayer.address).toBe(chain.localnet.feePayer.address);
    expect(JSON.stringify(lines)).not.toContain(secret.slice(1, 40));
    await expect(startFacilitator({ rpcUrl: chain.url, feePayer: "[1,2,3]", logger })).rejects.toThrow(
      "X402_FEE_PAYER_SECRET_KEY: a secret key is 64 bytes",
    );
  });
});

describe.skipIf(!redisServerAvailable())("/api/chat x402 v2 on two instances sharing Redis", () => {
  const shared = useRedisServer();

  test("one payload raced across both: one settlement, one grant", async () => {
    const [first, second] = twoOnRedis(shared.redis.url, "chat-x402-v2:", (store) => onChain({ store }));
    const from = "198.51.100.29";
    const payer = await chain.fundPayer();
    const header = await officialPaymentHeader(wallet(payer), await exhaust(first, from));
    const before = await chain.usdcBalance(chain.serviceWallet);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => ask(i % 2 === 0 ? first : second, from, header)),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 403)).toHaveLength(9);
    expect((await chain.usdcBalance(chain.serviceWallet)) - before).toBe(10_000n);
    const status = (await (await second.call("/api/status", {}, from)).json()) as { remaining: number };
    expect(status.remaining).toBe(9);
  });
});
