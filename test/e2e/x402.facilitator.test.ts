/**
 * This service as the Solana facilitator of an x402 server that is not ours: a minimal Hono app
 * with the official `@x402/hono` middleware and `@x402/core`'s HTTP facilitator client pointed at
 * our /x402 endpoints (bearer token), paid by the official fetch client on the local chain.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Address } from "@solana/kit";
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import { paymentMiddleware } from "@x402/hono";
import { ExactSvmScheme } from "@x402/svm/exact/server";
import * as Effect from "effect/Effect";
import { Hono } from "hono";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { startFacilitator } from "../../src/payments/v2/facilitator.ts";
import { DEFAULT_SPONSOR_POLICY } from "../../src/payments/v2/sponsor-policy.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { type TestApp, testApps } from "../support/test-app.ts";
import { officialFetch, officialPaymentHeader, settlementOf } from "../support/x402-v2.ts";

const TOKEN = "facilitator-token-0123456789";
const NETWORK = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
const build = testApps(afterAll);
let chain: TestChain;
let service: TestApp;
let serviceServer: ReturnType<typeof Bun.serve>;
let otherServer: ReturnType<typeof Bun.serve>;
let merchant: Address;

const startOther = (facilitatorUrl: string, token: string) => {
  const auth = { Authorization: `Bearer ${token}` };
  const client = new HTTPFacilitatorClient({
    url: facilitatorUrl,
    createAuthHeaders: async () => ({ verify: auth, settle: auth, supported: auth }),
  });
  const resourceServer = new x402ResourceServer(client).register(NETWORK, new ExactSvmScheme());
  const app = new Hono()
    .use(
      paymentMiddleware(
        {
          "GET /weather": {
            accepts: {
              scheme: "exact",
              network: NETWORK,
              payTo: merchant,
              price: { amount: "20000", asset: chain.mint },
            },
            description: "Weather",
          },
        },
        resourceServer,
      ),
    )
    .get("/weather", (c) => c.json({ weather: "sunny" }));
  return Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
};

beforeAll(async () => {
  chain = await startTestChain();
  merchant = await chain.freshAddress();
  await chain.localnet.mintTokens(merchant, 0n);
  const facilitator = await startFacilitator({
    rpcUrl: chain.url,
    feePayer: chain.localnet.feePayer,
    logger: memoryLogger().logger,
    // As the service runs it: its own USDC mint is the only one it sponsors for others.
    policy: { ...DEFAULT_SPONSOR_POLICY, mints: [chain.mint] },
  });
  // The merchant is on the allow-list (X402_FACILITATOR_PAY_TO); 0.02 USDC is above the minimum.
  service = build(
    facilitator === undefined ? {} : { facilitator, facilitatorToken: TOKEN, facilitatorPayTo: [merchant] },
  );
  serviceServer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => service.app.fetch(request, { remoteAddress: "127.0.0.1" }),
  });
  otherServer = startOther(`http://127.0.0.1:${serviceServer.port}/x402`, TOKEN);
});
afterAll(async () => {
  await otherServer?.stop(true);
  await serviceServer?.stop(true);
  await chain?.stop();
});

const wallet = async () => ({ signer: await chain.fundPayer(), rpcUrl: chain.url, mint: chain.mint });
const weather = () => `http://127.0.0.1:${otherServer.port}/weather`;

describe("what the sponsor will not pay for another server", () => {
  const call = (path: "verify" | "settle", body: unknown) =>
    fetch(`http://127.0.0.1:${serviceServer.port}/x402/${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then((response) => response.json() as Promise<Record<string, unknown>>);
  const feePayerSol = async () => (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value;

  test("a zero amount and a mint off the allow-list are refused, verify and settle alike, nothing spent", async () => {
    // A zero amount is below the minimum (x402.facilitator-terms.test.ts has the terms in full).
    const payer = await wallet();
    const header = await officialPaymentHeader(payer, await fetch(weather()));
    const paymentPayload = JSON.parse(atob(header));
    const requirements = paymentPayload.accepted;
    const foreignMint = await chain.localnet.createMint(chain.localnet.mintAuthority, 6);
    const before = await feePayerSol();
    for (const [paymentRequirements, reason] of [
      [{ ...requirements, amount: "0" }, "invalid_payment_requirements"],
      [{ ...requirements, asset: foreignMint }, "sent-other-token"],
    ] as const) {
      const body = { x402Version: 2, paymentPayload, paymentRequirements };
      expect(await call("verify", body)).toMatchObject({ isValid: false, invalidReason: reason });
      expect(await call("settle", body)).toMatchObject({ success: false, errorReason: reason });
    }
    expect(await feePayerSol()).toBe(before);
    // The honest requirements of the same payload still settle.
    const settled = await call("settle", {
      x402Version: 2,
      paymentPayload,
      paymentRequirements: requirements,
    });
    expect(settled).toMatchObject({ success: true });
  });
});

describe("our facilitator endpoints serve another x402 server", () => {
  test("the official client pays the other server; we verify, co-sign and settle it", async () => {
    const payer = await wallet();
    const before = await chain.usdcBalance(merchant);
    const response = await officialFetch(payer)(weather());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ weather: "sunny" });
    const settlement = settlementOf(response);
    expect(settlement).toMatchObject({ success: true, network: NETWORK, payer: payer.signer.address });
    expect((await chain.parsedTransaction(settlement?.transaction as never))?.meta?.err).toBeNull();
    expect((await chain.usdcBalance(merchant)) - before).toBe(20_000n);
    // The transaction is used in our ledger, and no one got a query for it: no quota state kept.
    const signature = String(settlement?.transaction);
    const now = Date.now();
    const [used, settler, stranger] = await service.runtime.runPromise(
      Effect.all([
        PaymentStore.use((p) => p.isClaimed(signature, now)),
        QuotaStore.use((q) => q.view(`x402-facilitator:${signature}`, now)),
        QuotaStore.use((q) => q.view("never-seen", now)),
      ]),
    );
    expect(used).toBe(true);
    expect(settler).toEqual(stranger);
  });

  test("the same payload settled twice moves money once", async () => {
    const payer = await wallet();
    const header = await officialPaymentHeader(payer, await fetch(weather()));
    const before = await chain.usdcBalance(merchant);
    expect((await fetch(weather(), { headers: { "PAYMENT-SIGNATURE": header } })).status).toBe(200);
    const again = await fetch(weather(), { headers: { "PAYMENT-SIGNATURE": header } });
    expect(again.status).not.toBe(200);
    expect((await chain.usdcBalance(merchant)) - before).toBe(20_000n);
  });

  test("one payload settled by concurrent calls: one success, money moved once", async () => {
    const payer = await wallet();
    const header = await officialPaymentHeader(payer, await fetch(weather()));
    const paymentPayload = JSON.parse(atob(header));
    const before = await chain.usdcBalance(merchant);
    const settle = () =>
      fetch(`http://127.0.0.1:${serviceServer.port}/x402/settle`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          x402Version: 2,
          paymentPayload,
          paymentRequirements: paymentPayload.accepted,
        }),
      }).then((response) => response.json() as Promise<{ success: boolean }>);
    const results = await Promise.all(Array.from({ length: 6 }, settle));
    expect(results.filter((result) => result.success)).toHaveLength(1);
    expect((await chain.usdcBalance(merchant)) - before).toBe(20_000n);
  });

  test("GET /x402/supported names the exact scheme, our network and fee payer", async () => {
    const response = await fetch(`http://127.0.0.1:${serviceServer.port}/x402/supported`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(await response.json()).toEqual({
      kinds: [
        {
          x402Version: 2,
          scheme: "exact",
          network: NETWORK,
          extra: { feePayer: chain.localnet.feePayer.address },
        },
      ],
      extensions: [],
      signers: { [NETWORK]: [chain.localnet.feePayer.address] },
    });
  });

  test("without the token, or with a wrong one: 401, nothing verified; five of one wrong value lock out that value only", async () => {
    // From a client of its own: the lock-out below must not reach the other tests' client.
    const stranger = "198.51.100.66";
    const attempts: ReadonlyArray<Record<string, string>> = [
      {},
      { Authorization: "Bearer wrong-token-0123456789" },
      { Authorization: TOKEN },
    ];
    const statuses: number[] = [];
    for (const headers of attempts) {
      for (const [method, path] of [
        ["GET", "supported"],
        ["POST", "verify"],
        ["POST", "settle"],
      ] as const) {
        statuses.push((await service.call(`/x402/${path}`, { method, headers }, stranger)).status);
      }
    }
    // No token is not a guess; each wrong value counts for itself (three tries each so far).
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401]);
    const wrong = { headers: { Authorization: "Bearer wrong-token-0123456789" } };
    for (const expected of [401, 401, 429])
      expect((await service.call("/x402/supported", wrong, stranger)).status).toBe(expected);
    const locked = await service.call("/x402/supported", wrong, stranger);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("900");
    // The right token from the same client is another value: it passes.
    const right = await service.call(
      "/x402/supported",
      { headers: { Authorization: `Bearer ${TOKEN}` } },
      stranger,
    );
    expect(right.status).toBe(200);
  });

  test("a verify request that is not one, or for another fee payer, is invalid", async () => {
    const verify = (body: unknown) =>
      fetch(`http://127.0.0.1:${serviceServer.port}/x402/verify`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }).then((response) => response.json());
    expect(await verify({})).toMatchObject({ isValid: false, invalidReason: "invalid_payload" });
    const payer = await wallet();
    const header = await officialPaymentHeader(payer, await fetch(weather()));
    const paymentPayload = JSON.parse(atob(header));
    const paymentRequirements = paymentPayload.accepted;
    expect(await verify({ x402Version: 2, paymentPayload, paymentRequirements })).toMatchObject({
      isValid: true,
    });
    expect(
      await verify({
        x402Version: 2,
        paymentPayload,
        paymentRequirements: { ...paymentRequirements, extra: { feePayer: merchant } },
      }),
    ).toMatchObject({ isValid: false, invalidReason: "fee_payer_not_managed_by_facilitator" });
    expect(
      await verify({
        x402Version: 2,
        paymentPayload,
        paymentRequirements: { ...paymentRequirements, amount: "20001" },
      }),
    ).toMatchObject({ isValid: false, invalidReason: "exact-transfer-mismatch" });
  });

  test("without the switch the paths do not exist", async () => {
    const plain = build({});
    expect(
      (await plain.call("/x402/supported", { headers: { Authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(404);
  });
});
