/**
 * The paywall middleware on routes of our own (not the example's): any method, the verified
 * payment in the handler's context, a failed handler that keeps the payment for a retry, the
 * AutoVerify rules, and options refused at setup. Real transfers on the local chain.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Result from "effect/Result";
import { Hono } from "hono";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { WebCryptoRandom } from "../../adapters/secure-random/index.ts";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import {
  decodeAuthorizationHeader,
  encodeAuthorizationHeader,
  paymentMemo,
} from "../../core/payments/x402.ts";
import { decodeReceiptHeader } from "../../core/payments/x402-receipt.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import {
  buildAuthorization,
  createTransfer,
  readPaymentRequest,
  type X402Wallet,
} from "../../src/payments/client/payment-client.ts";
import { createPaywall, PaywallConfigError, type X402Env } from "../../src/payments/server/payment-server.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 120_000 };
let chain: TestChain;
const runtime = ManagedRuntime.make(
  Layer.merge(MemoryStore.layer(LIMITS).pipe(Layer.orDie), WebCryptoRandom.layer),
);
const chainFor = (rpcUrl: string) => ChainSolana.fromUrl({ rpcUrl });
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await runtime.dispose();
  await chain?.stop();
});

const terms = () => ({ PaymentAddress: chain.serviceWallet, TokenMint: chain.mint, RPCURL: chain.url });
const wallet = (): X402Wallet => ({ signer: chain.payer, network: "chain-devnet", rpcUrl: chain.url });

/** An app with one priced route per method on /item, and a handler that fails while told to. */
const buildApp = (autoVerify = true) => {
  const { logger, lines } = memoryLogger();
  const paywall = createPaywall({ ...terms(), AutoVerify: autoVerify }, { runtime, logger, chainFor });
  const failures = { left: 0 };
  const priced = paywall({ Amount: "0.02", Description: "An item" });
  // As in any real app: a failure is a 500 answer (logged elsewhere), not a crash.
  const app = new Hono<X402Env>().onError((_, c) => c.json({ error: "Internal server error" }, 500));
  for (const method of ["GET", "POST", "PUT", "DELETE"] as const) {
    app.on(method, "/item", priced, (c) => {
      if (failures.left > 0) {
        failures.left--;
        throw new Error("handler broke");
      }
      const { receipt, request } = c.get("x402");
      return c.json({ method, paidBy: receipt.payer, paymentId: request.payment_id });
    });
  }
  app.get("/missing", priced, (c) => c.json({ error: "no such item" }, 404));
  return { app, lines, failures };
};

/** Asks for a price, pays it (or not, with `transfer`), and returns the header. */
const paidHeader = async (
  app: Hono<X402Env>,
  path: string,
  method = "GET",
  transfer?: (memo: string) => Promise<string>,
) => {
  const response = await app.request(path, { method });
  expect(response.status).toBe(402);
  const request = await readPaymentRequest(response);
  const signature =
    transfer === undefined
      ? await createTransfer(request, wallet())
      : await transfer(paymentMemo(request.payment_id));
  return (await buildAuthorization(request, wallet(), signature)).header;
};
const send = (app: Hono<X402Env>, path: string, method: string, header: string) =>
  app.request(path, { method, headers: { "X-Payment-Authorization": header } });

describe("paywall on any method", () => {
  test("each method has its own price; a payment binds to the method it was asked for", async () => {
    const { app } = buildApp();
    for (const method of ["POST", "PUT", "DELETE"]) {
      const header = await paidHeader(app, "/item", method);
      const response = await send(app, "/item", method, header);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ method, paidBy: chain.payer.address });
    }
    const forGet = await paidHeader(app, "/item", "GET");
    const wrongMethod = await send(app, "/item", "DELETE", forGet);
    expect(wrongMethod.status).toBe(403);
    expect(await wrongMethod.json()).toMatchObject({ Details: { reason: "payment-other-resource" } });
  });

  test("a handler that fails (5xx) keeps the payment: the same header is served on retry, then never again", async () => {
    const { app, failures } = buildApp();
    const header = await paidHeader(app, "/item");
    failures.left = 2;
    for (let attempt = 0; attempt < 2; attempt++) {
      const failed = await send(app, "/item", "GET", header);
      expect(failed.status).toBe(500);
      expect(failed.headers.get("X-Payment-Receipt")).toBeNull();
    }
    const served = await send(app, "/item", "GET", header);
    expect(served.status).toBe(200);
    expect(decodeReceiptHeader(served.headers.get("X-Payment-Receipt") ?? "")).toMatchObject({
      amount: "0.02",
      resource: "/item",
    });
    const replayed = await send(app, "/item", "GET", header);
    expect(replayed.status).toBe(403);
    expect(await replayed.json()).toMatchObject({ Details: { reason: "payment-already-used" } });
  });

  test("a handler's own 4xx answer is a served response (not retried)", async () => {
    const { app } = buildApp();
    const header = await paidHeader(app, "/missing");
    expect((await send(app, "/missing", "GET", header)).status).toBe(404);
    expect((await send(app, "/missing", "GET", header)).status).toBe(403);
  });
});

describe("AutoVerify", () => {
  test("off on devnet: a loud warning at setup; no chain lookup, but everything else still holds", async () => {
    const { app, lines } = buildApp(false);
    expect(
      lines.some((line) => line.level === "WARN" && String(line.msg).includes("AutoVerify is OFF")),
    ).toBe(true);
    // A transaction the chain has never seen is accepted without verification...
    const header = await paidHeader(app, "/item", "GET", async () => chain.randomSignature());
    expect((await send(app, "/item", "GET", header)).status).toBe(200);
    // ...but the payment_id is still consumed once, and the header still has to be signed and ours.
    expect((await send(app, "/item", "GET", header)).status).toBe(403);
    const other = await paidHeader(app, "/item", "GET", async () => chain.randomSignature());
    const authorization = Result.getOrThrow(decodeAuthorizationHeader(other));
    const unsigned = encodeAuthorizationHeader({ ...authorization, actual_amount: "5.00" });
    const forged = await send(app, "/item", "GET", unsigned);
    expect(await forged.json()).toMatchObject({ Details: { reason: "authorization-signature-invalid" } });
  });

  test("off is refused on mainnet, globally or for one route", () => {
    const { logger } = memoryLogger();
    expect(() =>
      createPaywall({ ...terms(), Network: "chain-mainnet" }, { runtime, logger, chainFor }),
    ).toThrow(PaywallConfigError);
    expect(() =>
      createPaywall(
        { ...terms(), Network: "chain-mainnet", AutoVerify: false },
        { runtime, logger, chainFor },
      ),
    ).toThrow(/AutoVerify/);
    const mainnet = createPaywall(
      { ...terms(), Network: "chain-mainnet", AutoVerify: true },
      { runtime, logger, chainFor },
    );
    expect(() => mainnet({ Amount: "0.10", AutoVerify: false })).toThrow(/chain-mainnet/);
    expect(() => mainnet({ Amount: "0.10" })).not.toThrow();
    // A devnet paywall with a mainnet route that turns verification off.
    const devnet = createPaywall({ ...terms(), AutoVerify: true }, { runtime, logger, chainFor });
    expect(() => devnet({ Amount: "0.10", Network: "chain-mainnet", AutoVerify: false })).toThrow(
      PaywallConfigError,
    );
  });
});

describe("options refused at setup", () => {
  const { logger } = memoryLogger();
  test("bad prices, addresses, expiries", () => {
    const paywall = createPaywall({ ...terms(), AutoVerify: true }, { runtime, logger, chainFor });
    for (const Amount of ["0", "0.0000001", "-1", "ten", "1e3", ""])
      expect(() => paywall({ Amount })).toThrow(PaywallConfigError);
    expect(() => paywall({ Amount: "0.10", PaymentAddress: "not-an-address" })).toThrow(PaywallConfigError);
    expect(() => paywall({ Amount: "0.10", ExpiresIn: 0 })).toThrow(PaywallConfigError);
    expect(() => paywall({ Amount: "0.10", ExpiresIn: 1.5 })).toThrow(PaywallConfigError);
    expect(() => createPaywall({ ...terms(), TokenMint: "0x1234" }, { runtime, logger, chainFor })).toThrow(
      PaywallConfigError,
    );
    expect(() => createPaywall({ ...terms(), RPCURL: "nowhere" }, { runtime, logger, chainFor })).toThrow(
      PaywallConfigError,
    );
  });
});
