/**
 * The client against the example server over HTTP, paying with real signed transfers on the
 * local chain: automatic mode pays, retries and gets the resource; it refuses above
 * MaxPaymentAmount, renews an expired request, refuses local endpoints without AllowLocal and
 * finds missing funds before sending anything. Explicit mode, step by step.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { address } from "@solana/kit";
import { decodeReceiptHeader } from "../../core/payments/x402-receipt.ts";
import { newKeypair } from "../../dev/localnet/keys.ts";
import {
  fetchPaymentRequest,
  InsufficientFundsError,
  InvalidPaymentRequestError,
  PaymentRequiredError,
  payPaymentRequest,
  wrapFetchWithPayment,
} from "../../src/payments/client/payment-client.ts";
import { type ExampleServer, startExampleServer, useExampleServer } from "../support/x402-example.ts";

const env = useExampleServer();
/** The demo payer's and the service wallet's USDC, to see exactly what moved. */
const balances = async () => ({
  payer: await env.chain.usdcBalance(env.chain.payer.address),
  service: await env.chain.usdcBalance(env.chain.serviceWallet),
});

describe("automatic mode", () => {
  test("pays, repeats the request and gets the resource with its receipt", async () => {
    const paid: string[] = [];
    const payingFetch = wrapFetchWithPayment(env.server.wallet(), {
      AllowLocal: true,
      onPaid: ({ signature }) => paid.push(signature),
    });
    const before = await balances();
    const response = await payingFetch(`${env.server.url}/premium-data`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: string; receipt: { transaction_hash: string } };
    expect(body.data).toContain("Premium data");
    expect(paid).toHaveLength(1);
    expect(body.receipt.transaction_hash).toBe(paid[0] ?? "");
    expect(decodeReceiptHeader(response.headers.get("X-Payment-Receipt") ?? "")).toMatchObject({
      transaction_hash: paid[0],
      amount: "0.10",
      resource: "/premium-data",
      payer: env.chain.payer.address,
    });
    const after = await balances();
    expect(before.payer - after.payer).toBe(100_000n);
    expect(after.service - before.service).toBe(100_000n);
    // A free resource costs nothing and passes straight through.
    expect((await payingFetch(`${env.server.url}/free-data`)).status).toBe(200);
    expect(paid).toHaveLength(1);
  });

  test("refuses a price above MaxPaymentAmount (default 10.0), compared exactly in base units", async () => {
    const before = await balances();
    const capped = wrapFetchWithPayment(env.server.wallet(), {
      AllowLocal: true,
      MaxPaymentAmount: "0.999999",
    });
    const refused = await capped(`${env.server.url}/expensive-data`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentRequiredError);
    expect((refused as PaymentRequiredError).code).toBe("PAYMENT_REQUIRED");
    expect((refused as PaymentRequiredError).request.max_amount_required).toBe("1.00");
    expect(await balances()).toEqual(before);
    // Exactly the price is allowed, however it is written.
    const exact = wrapFetchWithPayment(env.server.wallet(), {
      AllowLocal: true,
      MaxPaymentAmount: "1.000000",
    });
    expect((await exact(`${env.server.url}/expensive-data`)).status).toBe(200);
    const defaults = wrapFetchWithPayment(env.server.wallet(), { AllowLocal: true });
    expect((await defaults(`${env.server.url}/tiered-data/enterprise`)).status).toBe(200);
    expect(() => wrapFetchWithPayment(env.server.wallet(), { MaxPaymentAmount: "ten" })).toThrow(TypeError);
  });

  test("refuses a local payment endpoint, or a local RPC, without AllowLocal; pays nothing", async () => {
    const before = await balances();
    const strict = wrapFetchWithPayment(env.server.wallet());
    const refused = await strict(`${env.server.url}/premium-data`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidPaymentRequestError);
    expect(String((refused as Error).message)).toContain("payment endpoint");
    // Free resources on a local address are fetched as usual: only paying is refused.
    expect((await strict(`${env.server.url}/free-data`)).status).toBe(200);
    // A public-looking endpoint that answers 402 while the wallet's RPC is local.
    const proxy = async (input: RequestInfo | URL, init?: RequestInit) => {
      const local = new Request(input, init).url.replace("https://api.example.com", env.server.url);
      // Rebuilt so the answer carries no URL of its own, as through a proxy.
      const answer = await fetch(local, init);
      return new Response(answer.body, answer);
    };
    const proxied = wrapFetchWithPayment(env.server.wallet(), { fetch: proxy as typeof fetch });
    const viaRpc = await proxied("https://api.example.com/premium-data").catch((error: unknown) => error);
    expect(String((viaRpc as Error).message)).toContain("RPC endpoint");
    expect(await balances()).toEqual(before);
  });

  test("finds missing funds before sending anything (INSUFFICIENT_FUNDS)", async () => {
    const poor = await env.chain.fundPayer({ usdcUnits: 50_000n });
    const before = await env.chain.usdcBalance(poor.address);
    const payingFetch = wrapFetchWithPayment(env.server.wallet(poor), { AllowLocal: true });
    const refused = (await payingFetch(`${env.server.url}/premium-data`).catch(
      (error: unknown) => error,
    )) as InsufficientFundsError;
    expect(refused).toBeInstanceOf(InsufficientFundsError);
    expect(refused).toMatchObject({
      code: "INSUFFICIENT_FUNDS",
      asset: "token",
      required: "0.10",
      available: "0.05",
    });
    expect(await env.chain.usdcBalance(poor.address)).toBe(before);
    // Tokens but no SOL for the fee: refused before sending too.
    const { signer: noSol } = await newKeypair();
    await env.chain.localnet.mintTokens(noSol.address, 1_000_000n);
    const solless = wrapFetchWithPayment(env.server.wallet(noSol), { AllowLocal: true });
    const noFee = (await solless(`${env.server.url}/premium-data`).catch(
      (error: unknown) => error,
    )) as InsufficientFundsError;
    expect(noFee).toMatchObject({ code: "INSUFFICIENT_FUNDS", asset: "SOL", available: "0" });
    expect(await env.chain.usdcBalance(noSol.address)).toBe(1_000_000n);
  });

  test("refuses a request on another network than the wallet's", async () => {
    const payingFetch = wrapFetchWithPayment(
      { ...env.server.wallet(), network: "chain-mainnet" },
      { AllowLocal: true },
    );
    const refused = await payingFetch(`${env.server.url}/premium-data`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidPaymentRequestError);
    expect((refused as Error).message).toContain("chain-devnet");
  });

  test("AutoRetry resends the paid request when verification could not run (chain RPC down)", async () => {
    // The server's chain reader tries 4 times per lookup: the first lookup ends in a 503.
    env.chain.localnet.setFaults({ getTransaction: { kind: "http-500", times: 4 } });
    const retrying = wrapFetchWithPayment(env.server.wallet(), { AllowLocal: true, retryDelayMs: 50 });
    const response = await retrying(`${env.server.url}/tiered-data/basic`);
    expect(response.status).toBe(200);

    env.chain.localnet.setFaults({ getTransaction: { kind: "http-500", times: 4 } });
    const once = wrapFetchWithPayment(env.server.wallet(), { AllowLocal: true, AutoRetry: false });
    const unavailable = await once(`${env.server.url}/tiered-data/basic`);
    expect(unavailable.status).toBe(503);
    expect(((await unavailable.json()) as { Details: { retryable: boolean } }).Details.retryable).toBe(true);
    env.chain.localnet.setFaults({});
  });
});

describe("automatic mode: expiry", () => {
  let quick: ExampleServer;
  beforeAll(async () => {
    // 31 s: one second over the client's 30 s margin.
    quick = await startExampleServer(env.chain, { expiresIn: 31 });
  });
  afterAll(() => quick?.stop());

  test("renews a payment request too close to its expiry when it would be paid, and pays the live one", async () => {
    const seen: string[] = [];
    const payingFetch = wrapFetchWithPayment(quick.wallet(), {
      AllowLocal: true,
      // The first request is held past its margin (a user slow to approve): 29.9 s left is too late to start.
      confirm: async (request) => {
        seen.push(request.payment_id);
        if (seen.length === 1) await Bun.sleep(1_100);
        return true;
      },
    });
    const before = await balances();
    const response = await payingFetch(`${quick.url}/premium-data`);
    expect(response.status).toBe(200);
    expect(new Set(seen).size).toBe(2);
    // Only the renewed request was paid.
    expect(before.payer - (await balances()).payer).toBe(100_000n);
  });

  test("a late transfer on a route that serves none is answered PAYMENT_EXPIRED: the client pays the fresh request", async () => {
    const { chain } = env;
    // A route that opted out of serving late transfers (the default serves them, as the
    // late-transfers test shows): the first transfer is listed for refund, the second served.
    const server = await startExampleServer(chain, { lateTransfers: "list" });
    const paid: string[] = [];
    const payingFetch = wrapFetchWithPayment(server.wallet(), {
      AllowLocal: true,
      // The first transfer lands with the chain's clock 400 s ahead, after the 300 s expiry.
      confirm: () => {
        chain.localnet.setClockOffsetMs(paid.length === 0 ? 400_000 : 0);
        return true;
      },
      onPaid: ({ signature }) => paid.push(signature),
    });
    const response = await payingFetch(`${server.url}/premium-data`).finally(() =>
      chain.localnet.setClockOffsetMs(0),
    );
    expect(response.status).toBe(200);
    expect(paid).toHaveLength(2);
    expect(decodeReceiptHeader(response.headers.get("X-Payment-Receipt") ?? "")?.transaction_hash).toBe(
      paid[1],
    );
    expect((await server.unattributed()).map((entry) => entry.signature)).toEqual([paid[0] ?? ""]);
    await server.stop();
  });

  test("a declined payment is PAYMENT_REQUIRED, nothing paid", async () => {
    const before = await balances();
    const declining = wrapFetchWithPayment(quick.wallet(), { AllowLocal: true, confirm: () => false });
    const refused = await declining(`${quick.url}/premium-data`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentRequiredError);
    expect(await balances()).toEqual(before);
  });
});

describe("explicit mode", () => {
  test("the parsed payment request, then the transfer and header, then the resource", async () => {
    const { response, paymentRequest } = await fetchPaymentRequest(`${env.server.url}/tiered-data/pro`);
    expect(response.status).toBe(402);
    if (paymentRequest === undefined) throw new Error("no payment request");
    expect(paymentRequest).toMatchObject({
      max_amount_required: "0.05",
      asset_type: "SPL",
      asset_address: env.chain.mint,
      payment_address: env.chain.serviceWallet,
      network: "chain-devnet",
      resource: "/tiered-data/pro",
      description: "Tiered data",
    });
    const { header, signature, authorization } = await payPaymentRequest(paymentRequest, env.server.wallet());
    expect(authorization).toMatchObject({
      payment_id: paymentRequest.payment_id,
      actual_amount: "0.05",
      public_key: env.chain.payer.address,
      transaction_hash: signature,
    });
    const paid = await fetch(`${env.server.url}/tiered-data/pro`, {
      headers: { "X-Payment-Authorization": header },
    });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ tier: "pro", paid: true });
    expect((await fetchPaymentRequest(`${env.server.url}/free-data`)).paymentRequest).toBeUndefined();
  });

  test("the 402 body has exactly the spec's snake_case fields and the error object", async () => {
    const response = await fetch(`${env.server.url}/premium-data`);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        "max_amount_required",
        "asset_type",
        "asset_address",
        "payment_address",
        "network",
        "expires_at",
        "nonce",
        "payment_id",
        "resource",
        "description",
        "Message",
        "Code",
        "Details",
      ].sort(),
    );
    expect(body.Code).toBe("PAYMENT_REQUIRED");
    expect(body.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const second = (await (await fetch(`${env.server.url}/premium-data`)).json()) as Record<string, unknown>;
    expect(second.payment_id).not.toBe(body.payment_id);
    expect(second.nonce).not.toBe(body.nonce);
    // Sealed (docs/x402.md): random, expiry, offer tag and mac, inside the spec dialect's 128 characters.
    expect(String(body.payment_id)).toMatch(
      /^pay_[1-9A-HJ-NP-Za-km-z]{16}_[0-9a-z]+_[0-9a-f]{16}_[0-9a-f]{32}$/,
    );
    expect(String(body.payment_id).length).toBeLessThanOrEqual(128);
    expect(address(String(body.payment_address))).toBe(env.chain.serviceWallet);
  });
});
