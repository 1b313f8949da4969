/**
 * The paywall refuses every way to get a resource without paying for it, each with the
 * protocol's code and status: real signed transfers on the local chain, the example server over
 * HTTP. After each refusal the resource was not served.
 */
import { describe, expect, test } from "bun:test";
import { signBytes } from "@solana/kit";
import { encodeBase58 } from "../../core/base58.ts";
import {
  authorizationMessage,
  encodeAuthorizationHeader,
  paymentMemo,
  type X402ErrorBody,
} from "../../core/payments/x402.ts";
import { decodeReceiptHeader } from "../../core/payments/x402-receipt.ts";
import {
  buildAuthorization,
  createTransfer,
  PaymentExpiredError,
} from "../../src/payments/client/payment-client.ts";
import { useExampleServer } from "../support/x402-example.ts";

const env = useExampleServer();
const PRICE = 100_000n;

/** The refusal's status, code and reason; fails the test when the resource was served. */
const refusal = async (response: Response) => {
  const body = (await response.json()) as X402ErrorBody & Record<string, unknown>;
  expect(body).not.toHaveProperty("data");
  expect(response.headers.get("X-Payment-Receipt")).toBeNull();
  return { status: response.status, code: body.Code, reason: body.Details.reason };
};
const verificationFailed = (reason: string) => ({
  status: 403,
  code: "PAYMENT_VERIFICATION_FAILED" as const,
  reason,
});
/** /premium-data paid by `transfer` and presented: its refusal. */
const presented = async (transfer: (memo: string) => Promise<string>) =>
  refusal(await env.server.present("/premium-data", transfer));

describe("x402 security: each attack refused with its code", () => {
  test("the honest payment is served once; the same header replayed is refused", async () => {
    const { server } = env;
    const { header, signature } = await server.pay("/premium-data");
    const first = await server.get("/premium-data", header);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { receipt: { transaction_hash: string } }).receipt.transaction_hash).toBe(
      signature,
    );
    expect(await refusal(await server.get("/premium-data", header))).toEqual(
      verificationFailed("payment-already-used"),
    );
  });

  test("a header for another resource (and for the same path with another method)", async () => {
    const { server } = env;
    const { header } = await server.pay("/premium-data");
    expect(await refusal(await server.get("/tiered-data/basic", header))).toEqual(
      verificationFailed("payment-other-resource"),
    );
    const post = await fetch(`${server.url}/premium-data`, {
      method: "POST",
      headers: { "X-Payment-Authorization": header },
    });
    // POST is not a route of the example: the paywall never sees it, nothing is served.
    expect(post.status).toBe(404);
    // The refused attempts consumed nothing: the header still pays its own resource.
    expect((await server.get("/premium-data", header)).status).toBe(200);
  });

  test("a forged amount: stated below the price, or stated at the price but paid less", async () => {
    const { server, chain } = env;
    const { authorization } = await server.pay("/premium-data");
    const low = await server.forge(authorization, { actual_amount: "0.05" });
    expect(await refusal(await server.get("/premium-data", low))).toEqual(
      verificationFailed("authorization-mismatch"),
    );
    const response = await server.present("/premium-data", (memo) =>
      chain.sendUsdc({ units: PRICE / 2n, memo }),
    );
    const body = (await response.clone().json()) as X402ErrorBody;
    expect(await refusal(response)).toEqual(verificationFailed("amount-insufficient"));
    expect(body.Details).toMatchObject({ required: "0.10", received: "0.05" });
  });

  test("a forged address or network", async () => {
    const { server, chain } = env;
    const { authorization } = await server.pay("/premium-data");
    for (const change of [
      { payment_address: await chain.freshAddress() },
      { asset_address: await chain.freshAddress() },
      { network: "chain-mainnet" as const },
      { network: "chain-testnet" as const },
    ]) {
      const forged = await server.forge(authorization, change);
      expect(await refusal(await server.get("/premium-data", forged))).toEqual(
        verificationFailed("authorization-mismatch"),
      );
    }
  });

  test("a real transaction that pays someone else, with our memo", async () => {
    const { chain } = env;
    const to = await chain.freshAddress();
    expect(await presented((memo) => chain.sendUsdc({ to, units: PRICE, memo }))).toEqual(
      verificationFailed("paid-other-owner"),
    );
  });

  test("a transaction without our memo, or with another request's", async () => {
    const { server, chain } = env;
    expect(await presented(() => chain.sendUsdc({ units: PRICE }))).toEqual(
      verificationFailed("memo-required"),
    );
    const other = paymentMemo((await server.requestOf("/premium-data")).payment_id);
    expect(await presented(() => chain.sendUsdc({ units: PRICE, memo: other }))).toEqual(
      verificationFailed("memo-mismatch"),
    );
  });

  test("a transaction made by another authority than public_key", async () => {
    const { chain } = env;
    // The stranger pays with our memo; the demo payer claims it as its own.
    const stranger = await chain.fundPayer();
    expect(await presented((memo) => chain.sendUsdc({ from: stranger, units: PRICE, memo }))).toEqual(
      verificationFailed("transfer-authority-mismatch"),
    );
  });

  test("an invalid ed25519 signature, and a signature by another key", async () => {
    const { server, chain } = env;
    const { authorization } = await server.pay("/premium-data");
    const bytes = new Uint8Array(64).fill(7);
    const bad = encodeAuthorizationHeader({ ...authorization, signature: encodeBase58(bytes) });
    expect(await refusal(await server.get("/premium-data", bad))).toEqual(
      verificationFailed("authorization-signature-invalid"),
    );
    // The right message, signed with another key than public_key's.
    const stranger = await chain.fundPayer({ usdcUnits: 0n });
    const message = new TextEncoder().encode(authorizationMessage(authorization));
    const strangers = await signBytes(stranger.keyPair.privateKey, message);
    const signedByStranger = encodeAuthorizationHeader({
      ...authorization,
      signature: encodeBase58(strangers),
    });
    expect(await refusal(await server.get("/premium-data", signedByStranger))).toEqual(
      verificationFailed("authorization-signature-invalid"),
    );
  });

  test("a transfer that lands within a blockhash's lifetime after expires_at pays its request", async () => {
    const { server, chain } = env;
    const request = await server.requestOf("/premium-data");
    // 60 s after expires_at (300 s): a client that began paying before the deadline lands here at worst.
    const late = async (memo: string) => {
      chain.localnet.setClockOffsetMs(360_000);
      return chain.sendUsdc({ units: PRICE, memo }).finally(() => chain.localnet.setClockOffsetMs(0));
    };
    const response = await server.present("/premium-data", late, request);
    expect(response.status).toBe(200);
    expect(decodeReceiptHeader(response.headers.get("X-Payment-Receipt") ?? "")?.payment_id).toBe(
      request.payment_id,
    );
  });

  test("the client will not start paying a request with less than 30 s left, and says so", async () => {
    const { server } = env;
    const request = await server.requestOf("/premium-data");
    const nearlyExpired = { ...request, expires_at: new Date(Date.now() + 29_000).toISOString() };
    const before = await env.chain.usdcBalance(env.chain.payer.address);
    const refused = await createTransfer(nearlyExpired, server.wallet()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(PaymentExpiredError);
    expect((refused as PaymentExpiredError).message).toContain("less than 30 s left");
    expect(await env.chain.usdcBalance(env.chain.payer.address)).toBe(before);
  });

  test("a never-issued payment_id", async () => {
    // (A transfer that lands after the request expired is served: x402.late-transfers.test.ts.)
    const { server } = env;
    const { authorization } = await server.pay("/premium-data");
    const unknown = await server.forge(authorization, { payment_id: "pay_NeverIssued0000000000" });
    expect(await refusal(await server.get("/premium-data", unknown))).toEqual(
      verificationFailed("payment-unknown"),
    );
  });

  test("a malformed header, and a transaction the chain does not know", async () => {
    const { server, chain } = env;
    for (const header of ["", "not base64 !!", btoa("{}"), "A".repeat(5000)]) {
      expect(await refusal(await server.get("/premium-data", header))).toEqual({
        status: 400,
        code: "INVALID_PAYMENT_REQUEST",
        reason: "authorization-malformed",
      });
    }
    const response = await server.present("/premium-data", async () => chain.randomSignature());
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await refusal(response)).toEqual(verificationFailed("transaction-not-found"));
  });

  test("a transaction that already paid one request cannot pay another", async () => {
    const { server } = env;
    const request = await server.requestOf("/premium-data");
    const { header, signature } = await server.pay("/premium-data");
    expect((await server.get("/premium-data", header)).status).toBe(200);
    const again = await buildAuthorization(request, server.wallet(), signature);
    expect(await refusal(await server.get("/premium-data", again.header))).toEqual(
      verificationFailed("signature-already-used"),
    );
  });
});
