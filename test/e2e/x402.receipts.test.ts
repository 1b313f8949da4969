/**
 * x402 offer-receipt and bazaar on a real local chain, paid by the official clients
 * (`@x402/fetch`/`@x402/core` with `@x402/svm`, the MCP SDK client) and checked with
 * `@x402/extensions`: every v2 402 (/api/chat, a priced MCP tool, a paywalled route) carries
 * one signed offer per accepts[] entry that verifies, and a bazaar declaration the extension
 * validates; every settled payment carries a signed receipt (PAYMENT-RESPONSE, the chat's JSON
 * answer, the MCP result's payment response) that verifies and matches its offer for the
 * payer; exactly what moved is checked (payer's and service's USDC, fee payer's SOL). The
 * facilitator API lists the resources (bazaar discovery), and did:web's document is served.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner, Signature } from "@solana/kit";
import { HTTPFacilitatorClient } from "@x402/core/http";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { type DiscoveryExtension, validateDiscoveryExtension, withBazaar } from "@x402/extensions/bazaar";
import {
  type DecodedOffer,
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyReceiptMatchesOffer,
} from "@x402/extensions/offer-receipt";
import { Hono } from "hono";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { receiptKeyOf } from "../../src/payments/offer-receipt/receipt-key.ts";
import { createPaywall, specDialect, type X402Env } from "../../src/payments/server/payment-server.ts";
import { exactDialect } from "../../src/payments/v2/exact-dialect.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { receiptOf, withX402Extensions } from "../../src/payments/v2/x402-extensions.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import { chainReaderOf, parsedTransaction, type TestChain } from "../support/localnet.ts";
import { connectMcp } from "../support/mcp-client.ts";
import { verifyOffer, verifyReceipt, verifyUnderNode } from "../support/offer-receipt.ts";
import { type TestAppOptions, testApps } from "../support/test-app.ts";
import {
  officialClient,
  officialFetch,
  paymentRequiredOf,
  settlementOf,
  startChainWithFacilitator,
} from "../support/x402-v2.ts";

const ADMIN_TOKEN = "an-admin-token-long-enough-1234567890";
const FACILITATOR_TOKEN = "a-facilitator-token-long-enough-123456";
const receiptKey = receiptKeyOf(Uint8Array.from({ length: 32 }, (_, i) => 200 - i));
let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const servers: Array<ReturnType<typeof Bun.serve>> = [];
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(async () => {
  for (const server of servers) await server.stop(true);
  await chain?.stop();
});

const onChain = (options: TestAppOptions = {}) =>
  build({
    freeQueries: 1,
    receiptKey,
    adminToken: ADMIN_TOKEN,
    mcpToolPrices: { search_docs: 0, read_page: 0, ask_docs: 1 },
    ...(facilitator === undefined ? {} : { facilitator }),
    chain: chainReaderOf(chain),
    ...options,
  });
const wallet = (signer: KeyPairSigner) => ({ signer, rpcUrl: chain.url, mint: chain.mint });

/** What a payment may move: the payer's and the service's USDC, the fee payer's SOL. */
const holdings = async (payer: KeyPairSigner) => ({
  payer: await chain.usdcBalance(payer.address),
  service: await chain.usdcBalance(chain.serviceWallet),
  feePayerSol: (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value,
});
/** The fee the chain charged for `transaction` (lamports), read from the chain itself. */
const feeOf = async (transaction: string) => {
  const found = await parsedTransaction(chain.rpc, transaction as Signature);
  if (found === null || found.meta === null) throw new Error(`transaction ${transaction} not found`);
  return BigInt(found.meta.fee);
};
/** Exactly one settlement of 0.01 USDC: the payer gave it, the service got it, the fee payer paid the fee. */
const expectOnePayment = async (
  before: Awaited<ReturnType<typeof holdings>>,
  payer: KeyPairSigner,
  transaction: string,
) => {
  const after = await holdings(payer);
  expect(before.payer - after.payer).toBe(10_000n);
  expect(after.service - before.service).toBe(10_000n);
  expect(before.feePayerSol - after.feePayerSol).toBe(await feeOf(transaction));
};

/** Each signed offer of `required` verified (@x402/extensions), decoded, and the one matching accepts[0]. */
const verifiedOffer = async (required: PaymentRequired): Promise<DecodedOffer> => {
  const offers = extractOffersFromPaymentRequired(required) as JWSSignedOffer[];
  expect(offers).toHaveLength(required.accepts.length);
  for (const offer of offers) await verifyOffer(offer);
  const [decoded] = decodeSignedOffers(offers);
  if (decoded === undefined) throw new Error("no offer");
  const { scheme, network, asset, payTo, amount } = required.accepts[0] ?? {};
  expect(decoded).toMatchObject({
    scheme,
    network,
    asset,
    payTo,
    amount,
    resourceUrl: required.resource.url,
  });
  return decoded;
};

/** The receipts the owner's console lists with the revenue (GET /api/admin/insights). */
const receiptsListed = async (t: ReturnType<typeof onChain>) => {
  const insights = await t.call("/api/admin/insights", {
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return ((await insights.json()) as { revenue: { receipts: unknown[] } }).revenue.receipts;
};

const bazaarOf = (required: PaymentRequired) => required.extensions?.bazaar as DiscoveryExtension;

describe("offer-receipt and bazaar on /api/chat", () => {
  test("the 402's offer verifies and its bazaar validates; the official client pays; the receipt verifies, matches the offer, and is in the JSON answer", async () => {
    const t = onChain();
    const from = "198.51.100.130";
    const required = paymentRequiredOf(await exhaustFreeQuestion(t, from));
    const offer = await verifiedOffer(required);
    expect(required.resource).toMatchObject({
      serviceName: "Docs assistant",
      tags: ["docs", "search", "answers", "mcp"],
    });
    expect(validateDiscoveryExtension(bazaarOf(required))).toEqual({ valid: true });
    expect(bazaarOf(required).info.input).toMatchObject({ type: "http", method: "POST", bodyType: "json" });

    const payer = await chain.fundPayer();
    const before = await holdings(payer);
    const viaApp = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      return t.app.request(new URL(request.url).pathname, request, { remoteAddress: from });
    }) as typeof fetch;
    const response = await officialFetch(wallet(payer), viaApp)(required.resource.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "How do I write a file?" }),
    });
    expect(response.status).toBe(200);
    const settlement = settlementOf(response) as SettleResponse;
    expect(settlement).toMatchObject({ success: true, payer: payer.address });
    const receipt = extractReceiptFromResponse(response) as JWSSignedReceipt;
    expect(await verifyReceipt(receipt)).toMatchObject({
      version: 1,
      payer: payer.address,
      network: settlement.network,
      resourceUrl: required.resource.url,
      transaction: settlement.transaction,
    });
    expect(verifyReceiptMatchesOffer(receipt, offer, [payer.address])).toBe(true);
    expect(verifyReceiptMatchesOffer(receipt, offer, [chain.serviceWallet])).toBe(false);
    // The JSON answer carries the same receipt, for clients that read bodies only.
    expect(((await response.json()) as { receipt: unknown }).receipt).toEqual(receipt);
    await expectOnePayment(before, payer, settlement.transaction);
    expect(await receiptsListed(t)).toEqual([
      { at: expect.any(Number), dialect: "x402-v2", units: 10_000, usdc: "0.01", receipt: receipt.signature },
    ]);
  });

  test("over a real Bun server, the official client's PAYMENT-SIGNATURE (echoing bazaar, offers, sign-in and the longest icon URL allowed) is read and paid", async () => {
    // 2,048 characters, the most X402_SERVICE_ICON_URL may hold: about 10,200 in the header.
    const iconUrl = `https://docs.example.com/${"i".repeat(2048 - 29)}.png`;
    const t = onChain({ service: { iconUrl } });
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => t.app.fetch(request, { remoteAddress: "198.51.100.136" }),
    });
    servers.push(server);
    const url = `http://127.0.0.1:${server.port}/api/chat`;
    const ask = {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"message":"How?"}',
    };
    expect((await fetch(url, ask)).status).toBe(200);
    const payer = await chain.fundPayer();
    const response = await officialFetch(wallet(payer))(url, ask);
    expect(response.status).toBe(200);
    expect(iconUrl).toHaveLength(2048);
    expect(await verifyReceipt(extractReceiptFromResponse(response) as JWSSignedReceipt)).toMatchObject({
      payer: payer.address,
      resourceUrl: url,
    });
  });

  test("the extension resolves the receipt's did:key itself and verifies it (under Node)", async () => {
    const t = onChain();
    const from = "198.51.100.131";
    const response = await exhaustFreeQuestion(t, from);
    const payer = await chain.fundPayer();
    const payload = await officialClient(wallet(payer)).createPaymentPayload(paymentRequiredOf(response));
    const { encodePaymentSignatureHeader } = await import("@x402/core/http");
    const paid = await askChat(t, from, { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) });
    expect(paid.status).toBe(200);
    const receipt = extractReceiptFromResponse(paid) as JWSSignedReceipt;
    expect(verifyUnderNode(receipt)).toMatchObject({ payer: payer.address, version: 1 });
  });

  test("without a signing key the 402 still declares bazaar, and nothing is signed", async () => {
    const t = build({ freeQueries: 1, ...(facilitator === undefined ? {} : { facilitator }) });
    const required = paymentRequiredOf(await exhaustFreeQuestion(t, "198.51.100.132"));
    expect(required.extensions?.["offer-receipt"]).toBeUndefined();
    expect(validateDiscoveryExtension(bazaarOf(required))).toEqual({ valid: true });
  });
});

describe("offer-receipt and bazaar on a priced MCP tool", () => {
  test("the payment-required result's offer verifies, its bazaar names the tool; paid, the result's payment response holds a receipt that matches", async () => {
    const t = onChain();
    const from = "198.51.100.133";
    const client = await connectMcp(t, from, servers);
    await client.callTool({ name: "ask_docs", arguments: { question: "How do I write a file?" } });
    const offered = await client.callTool({
      name: "ask_docs",
      arguments: { question: "How do I write a file?" },
    });
    expect(offered.isError).toBe(true);
    const required = offered.structuredContent as unknown as PaymentRequired;
    const offer = await verifiedOffer(required);
    expect(validateDiscoveryExtension(bazaarOf(required))).toEqual({ valid: true });
    expect(bazaarOf(required).info.input).toMatchObject({
      type: "mcp",
      toolName: "ask_docs",
      transport: "streamable-http",
    });

    const payer = await chain.fundPayer();
    const before = await holdings(payer);
    const payload = await officialClient(wallet(payer)).createPaymentPayload(required);
    const paid = await client.callTool({
      name: "ask_docs",
      arguments: { question: "How do I write a file?" },
      _meta: { "x402/payment": payload },
    });
    expect(paid.isError).toBeFalsy();
    const settlement = (paid._meta as Record<string, SettleResponse>)[
      "x402/payment-response"
    ] as SettleResponse;
    const receipt = receiptOf(settlement) as JWSSignedReceipt;
    expect(await verifyReceipt(receipt)).toMatchObject({
      payer: payer.address,
      resourceUrl: required.resource.url,
    });
    expect(verifyReceiptMatchesOffer(receipt, offer, [payer.address])).toBe(true);
    await expectOnePayment(before, payer, settlement.transaction);
    expect(await receiptsListed(t)).toEqual([
      {
        at: expect.any(Number),
        dialect: "x402-mcp",
        units: 10_000,
        usdc: "0.01",
        receipt: receipt.signature,
      },
    ]);
  });
});

describe("offer-receipt on the paywall middleware", () => {
  test("a paywalled route's 402 offer verifies; the official client pays; its PAYMENT-RESPONSE receipt matches the offer", async () => {
    if (facilitator === undefined) throw new Error("no facilitator");
    const { logger } = memoryLogger();
    const signed = withX402Extensions(facilitator, { key: receiptKey, entries: [], service: {} });
    if (signed === undefined) throw new Error("no facilitator");
    const { runtime } = onChain();
    const paywall = createPaywall(
      { PaymentAddress: chain.serviceWallet, TokenMint: chain.mint, RPCURL: chain.url, AutoVerify: true },
      {
        runtime,
        logger,
        chainFor: (rpcUrl) => ChainSolana.fromUrl({ rpcUrl }),
        dialects: [specDialect(logger), exactDialect({ ...signed, logger })],
      },
    );
    const app = new Hono<X402Env>().get(
      "/report",
      paywall({ Amount: "0.01", Description: "A report" }),
      (c) => c.json({ report: "paid" }),
    );
    const required = paymentRequiredOf(await app.request("https://api.example/report"));
    const offer = await verifiedOffer(required);
    const payer = await chain.fundPayer();
    const before = await holdings(payer);
    const viaApp = (async (input: RequestInfo | URL, init?: RequestInit) =>
      app.request(new Request(input, init))) as typeof fetch;
    const response = await officialFetch(wallet(payer), viaApp)("https://api.example/report");
    expect(response.status).toBe(200);
    const receipt = extractReceiptFromResponse(response) as JWSSignedReceipt;
    expect(await verifyReceipt(receipt)).toMatchObject({
      payer: payer.address,
      resourceUrl: "https://api.example/report",
    });
    expect(verifyReceiptMatchesOffer(receipt, offer, [payer.address])).toBe(true);
    await expectOnePayment(before, payer, (settlementOf(response) as SettleResponse).transaction);
  });
});

describe("bazaar discovery on the facilitator API", () => {
  test("the official bazaar client lists this service's resources, each with a declaration the extension validates", async () => {
    const t = onChain({
      facilitatorToken: FACILITATOR_TOKEN,
      mcpToolPrices: { search_docs: 2, read_page: 0, ask_docs: 1 },
    });
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => t.app.fetch(request, { remoteAddress: "198.51.100.134" }),
    });
    servers.push(server);
    const client = withBazaar(new HTTPFacilitatorClient({ url: `http://127.0.0.1:${server.port}/x402` }));
    const listed = await client.extensions.bazaar.listResources();
    expect(listed.pagination).toEqual({ limit: 100, offset: 0, total: 3 });
    const origin = `http://127.0.0.1:${server.port}`;
    expect(listed.items.map((item) => [item.resource, item.type])).toEqual([
      [`${origin}/api/chat`, "http"],
      [`${origin}/mcp`, "mcp"],
      [`${origin}/mcp`, "mcp"],
    ]);
    for (const item of listed.items) {
      expect(item.accepts[0]).toMatchObject({
        scheme: "exact",
        asset: chain.mint,
        payTo: chain.serviceWallet,
      });
      expect(item.serviceName).toBe("Docs assistant");
      expect(validateDiscoveryExtension(item.extensions?.bazaar as DiscoveryExtension)).toEqual({
        valid: true,
      });
    }
    const tools = await client.extensions.bazaar.listResources({ type: "mcp", limit: 1, offset: 1 });
    expect(tools.pagination).toEqual({ limit: 1, offset: 1, total: 2 });
    expect(tools.items[0]?.extensions?.bazaar).toMatchObject({ info: { input: { toolName: "ask_docs" } } });
  });

  test("without the facilitator API the path is not served", async () => {
    const t = onChain();
    expect((await t.call("/x402/discovery/resources")).status).toBe(404);
  });
});

describe("did:web", () => {
  test("with PUBLIC_ORIGIN the offers' kid is did:web of it, and /.well-known/did.json holds the key that verifies them", async () => {
    const key = receiptKeyOf(
      Uint8Array.from({ length: 32 }, (_, i) => i),
      "http://localhost",
    );
    const t = onChain({ receiptKey: key, surface: { publicOrigin: "http://localhost" } });
    const required = paymentRequiredOf(await exhaustFreeQuestion(t, "198.51.100.135"));
    const [offer] = extractOffersFromPaymentRequired(required) as JWSSignedOffer[];
    const document = (await (await t.call("/.well-known/did.json")).json()) as {
      id: string;
      verificationMethod: Array<{ id: string; publicKeyJwk: Record<string, string> }>;
    };
    expect(document.id).toBe("did:web:localhost");
    const { extractJWSHeader, verifyOfferSignatureJWS } = await import("@x402/extensions/offer-receipt");
    const kid = String(extractJWSHeader(offer?.signature ?? "").kid);
    expect(kid.startsWith("did:web:localhost#")).toBe(true);
    const method = document.verificationMethod.find((entry) => entry.id === kid);
    expect(
      await verifyOfferSignatureJWS(offer as JWSSignedOffer, method?.publicKeyJwk as never),
    ).toMatchObject({ amount: "10000" });
  });

  test("with did:key there is no document to serve", async () => {
    expect((await onChain().call("/.well-known/did.json")).status).toBe(404);
  });
});
