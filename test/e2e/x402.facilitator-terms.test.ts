/**
 * What the facilitator API (POST /x402/verify, /x402/settle) sponsors, on the local chain with
 * its fee payer: a transfer to a payTo on the allow-list (default: the service's own wallet) of
 * at least the minimum (default: 0.01 USDC), paid from the same fee payer and its budgets as the
 * service's own routes. Measured before: one base unit to a payTo not the service's was
 * settled, success: true, and the fee payer spent 10,001 lamports.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Address, KeyPairSigner } from "@solana/kit";
import type { PaymentRequirements } from "@x402/core/types";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import { exactHeader, startChainWithFacilitator, transferFor } from "../support/x402-v2.ts";

const TOKEN = "facilitator-token-0123456789";
/** Two signatures and the official budget (20,000 units at 1 micro-lamport). */
const OFFICIAL_FEE = 10_001n;
const build = testApps(afterAll);
let chain: TestChain;
let facilitator: ExactFacilitator;
let stranger: Address;

beforeAll(async () => {
  const started = await startChainWithFacilitator();
  chain = started.chain;
  if (started.facilitator === undefined) throw new Error("the local chain's fee payer did not start");
  facilitator = started.facilitator;
  stranger = await chain.freshAddress();
  await chain.localnet.mintTokens(stranger, 0n);
});
afterAll(() => chain?.stop());

/** The service as it runs: its wallet is the local chain's service wallet. */
const service = (options: TestAppOptions = {}): TestApp =>
  build({
    ...options,
    facilitator,
    facilitatorToken: TOKEN,
    chain: chainReaderOf(chain),
  });

const requirementsFor = (payTo: string, amount: bigint): PaymentRequirements => ({
  scheme: "exact",
  network: facilitator.network,
  amount: `${amount}`,
  asset: chain.mint,
  payTo,
  maxTimeoutSeconds: 60,
  extra: { feePayer: facilitator.feePayer.address },
});

/** The facilitator request an honest client's transfer of `amount` to `payTo` makes. */
const requestFor = async (payer: KeyPairSigner, payTo: string, amount: bigint) => {
  const requirements = requirementsFor(payTo, amount);
  const header = await exactHeader(requirements, [await transferFor({ requirements, payer })], {
    rpcUrl: chain.url,
  });
  return { x402Version: 2, paymentPayload: JSON.parse(atob(header)), paymentRequirements: requirements };
};

const call = async (t: TestApp, path: "verify" | "settle", body: unknown, token = TOKEN, from?: string) => {
  const response = await t.call(
    `/x402/${path}`,
    {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    },
    from,
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const feePayerSol = async () => (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value;

describe("the facilitator API sponsors only what it should", () => {
  test("one base unit to a payTo not the service's: refused invalid_payment_requirements, verify and settle, nothing spent", async () => {
    const t = service();
    const payer = await chain.fundPayer();
    const body = await requestFor(payer, stranger, 1n);
    const [sol, usdc] = [await feePayerSol(), await chain.usdcBalance(stranger)];
    expect((await call(t, "verify", body)).body).toEqual({
      isValid: false,
      invalidReason: "invalid_payment_requirements",
    });
    expect((await call(t, "settle", body)).body).toMatchObject({
      success: false,
      errorReason: "invalid_payment_requirements",
      transaction: "",
    });
    expect(await feePayerSol()).toBe(sol);
    expect(await chain.usdcBalance(stranger)).toBe(usdc);
  });

  test("a foreign payTo at the full price is refused too; dust to our own wallet is refused; nothing spent", async () => {
    const t = service();
    const payer = await chain.fundPayer();
    const sol = await feePayerSol();
    for (const body of [
      await requestFor(payer, stranger, 10_000n),
      await requestFor(payer, chain.serviceWallet, 9_999n),
      await requestFor(payer, chain.serviceWallet, 1n),
    ]) {
      expect((await call(t, "verify", body)).body).toMatchObject({
        isValid: false,
        invalidReason: "invalid_payment_requirements",
      });
      expect((await call(t, "settle", body)).body).toMatchObject({
        success: false,
        errorReason: "invalid_payment_requirements",
      });
    }
    expect(await feePayerSol()).toBe(sol);
  });

  test("the smallest price to our own wallet settles, at exactly its fee, counted in the sponsor's watch", async () => {
    const t = service();
    const payer = await chain.fundPayer();
    const body = await requestFor(payer, chain.serviceWallet, 10_000n);
    expect((await call(t, "verify", body)).body).toMatchObject({ isValid: true, payer: payer.address });
    await facilitator.sponsor.refresh();
    const [sol, watched, usdc] = [
      await feePayerSol(),
      facilitator.sponsor.lamports(),
      await chain.usdcBalance(chain.serviceWallet),
    ];
    expect((await call(t, "settle", body)).body).toMatchObject({ success: true, payer: payer.address });
    expect(sol - (await feePayerSol())).toBe(OFFICIAL_FEE);
    // The same balance the service's own 402s are withdrawn by (its floor): lowered by the fee.
    expect(watched === undefined ? undefined : watched - (facilitator.sponsor.lamports() ?? 0n)).toBe(
      OFFICIAL_FEE,
    );
    expect((await chain.usdcBalance(chain.serviceWallet)) - usdc).toBe(10_000n);
  });

  test("X402_FACILITATOR_PAY_TO and X402_FACILITATOR_MIN_AMOUNT replace the defaults", async () => {
    const t = service({ facilitatorPayTo: [stranger], facilitatorMinUnits: 20_000n });
    const payer = await chain.fundPayer();
    expect((await call(t, "verify", await requestFor(payer, stranger, 20_000n))).body).toMatchObject({
      isValid: true,
    });
    for (const body of [
      await requestFor(payer, stranger, 19_999n),
      await requestFor(payer, chain.serviceWallet, 20_000n),
    ])
      expect((await call(t, "verify", body)).body).toMatchObject({
        isValid: false,
        invalidReason: "invalid_payment_requirements",
      });
  });
});

describe("the facilitator token, from an address partners share", () => {
  test("one partner's wrong token, five times: that token is locked out, the right one still settles", async () => {
    const t = service();
    const shared = "198.51.100.77";
    const payer = await chain.fundPayer();
    const body = await requestFor(payer, chain.serviceWallet, 10_000n);
    const stale = "facilitator-stale-0123456789";
    for (let i = 0; i < 5; i++) expect((await call(t, "verify", body, stale, shared)).status).toBe(401);
    expect((await call(t, "verify", body, stale, shared)).status).toBe(429);
    const settled = await call(t, "settle", body, TOKEN, shared);
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ success: true });
    // And the wrong token stays locked out after the right one passed.
    expect((await call(t, "verify", body, stale, shared)).status).toBe(429);
  });
});
