import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { encodeBase58 } from "../../core/base58.ts";
import {
  CHAIN_NETWORKS,
  DEFAULT_RPC_URL,
  X402_NETWORKS,
  x402NetworkOf,
} from "../../core/payments/network.ts";
import {
  AUTHORIZATION_MESSAGE_HEADER,
  authorizationMessage,
  isExpired,
  PaymentAuthorization,
  PaymentRequest,
  paymentMemo,
  paymentRequestFromJson,
  paymentRequestToJson,
  requiredUnits,
  X402_CODES,
  x402Error,
} from "../../core/payments/x402.ts";
import { addressOf } from "../support/parsed-tx.ts";
import { authorization, request } from "../support/x402-samples.ts";

const requestDecodes = (value: unknown) =>
  Result.isSuccess(Schema.decodeUnknownResult(PaymentRequest)(value));
const authorizationDecodes = (value: unknown) =>
  Result.isSuccess(Schema.decodeUnknownResult(PaymentAuthorization)(value));

describe("x402 schemas", () => {
  test("a valid payment request and authorization decode", () => {
    expect(requestDecodes(request)).toBe(true);
    expect(authorizationDecodes(authorization)).toBe(true);
  });

  const badRequest: ReadonlyArray<readonly [string, unknown]> = [
    ["max_amount_required", "-1"],
    ["max_amount_required", "1e3"],
    ["max_amount_required", 0.1],
    ["asset_type", "ERC20"],
    ["asset_address", "0xabc"],
    ["payment_address", encodeBase58(new Uint8Array(31).fill(7))],
    ["network", "devnet"],
    ["network", "solana-mainnet"],
    ["expires_at", "tomorrow"],
    ["expires_at", "2025-06-01"],
    ["nonce", "short"],
    ["nonce", "has space in it"],
    ["payment_id", "x".repeat(129)],
    ["resource", 5],
    ["description", undefined],
  ];
  for (const [field, value] of badRequest) {
    test(`payment request with ${field}=${JSON.stringify(value)} is refused`, () => {
      expect(requestDecodes({ ...request, [field]: value })).toBe(false);
    });
  }

  const badAuthorization: ReadonlyArray<readonly [string, unknown]> = [
    ["payment_id", "pay"],
    ["actual_amount", "ten"],
    ["actual_amount", ".5"],
    ["payment_address", "not-base58-0OIl"],
    ["asset_address", ""],
    ["network", "chain-localnet"],
    ["timestamp", "2025-06-01 12:00:00"],
    ["signature", "s".repeat(257)],
    ["signature", "short"],
    // base58 of 63 bytes: not an ed25519 signature.
    ["signature", encodeBase58(new Uint8Array(63).fill(9))],
    ["signature", `${authorization.signature.slice(0, -1)}0`],
    ["public_key", addressOf(3).slice(0, 20)],
    ["transaction_hash", "a".repeat(63)],
    ["transaction_hash", "a".repeat(89)],
    ["transaction_hash", null],
    ["transaction_hash", "O".repeat(88)],
    ["transaction_hash", encodeBase58(new Uint8Array(65).fill(200))],
  ];
  for (const [field, value] of badAuthorization) {
    test(`authorization with ${field}=${JSON.stringify(value)} is refused`, () => {
      expect(authorizationDecodes({ ...authorization, [field]: value })).toBe(false);
    });
  }

  test("every authorization field is required", () => {
    for (const field of Object.keys(authorization)) {
      const { [field as keyof PaymentAuthorization]: _, ...rest } = authorization;
      expect(authorizationDecodes(rest)).toBe(false);
    }
  });
});

describe("payment request helpers", () => {
  test("JSON round trip", () => {
    const json = paymentRequestToJson(request);
    expect(JSON.parse(json)).toEqual(request);
    const back = paymentRequestFromJson(json);
    expect(Result.getOrUndefined(back)).toEqual(request);
    expect(Result.isFailure(paymentRequestFromJson("{"))).toBe(true);
    expect(Result.isFailure(paymentRequestFromJson(JSON.stringify({ ...request, network: "x" })))).toBe(true);
  });

  test("isExpired at and after expires_at, not before", () => {
    const at = Date.parse(request.expires_at);
    expect(isExpired(request, at - 1)).toBe(false);
    expect(isExpired(request, at)).toBe(true);
    expect(isExpired(request, at + 1)).toBe(true);
    expect(isExpired({ expires_at: "2025-06-01T14:05:00+02:00" }, at - 1)).toBe(false);
    // Fits the schema's pattern but is no date: fail closed.
    expect(isExpired({ expires_at: "2025-13-45T99:99:99Z" }, 0)).toBe(true);
  });

  test("required amount in base units", () => {
    const units = requiredUnits(request);
    expect<bigint | undefined>(Result.getOrUndefined(units)).toBe(100_000n);
  });
});

describe("x402 errors and networks", () => {
  test("six codes with their statuses", () => {
    expect(X402_CODES).toEqual({
      PAYMENT_REQUIRED: 402,
      PAYMENT_EXPIRED: 402,
      INSUFFICIENT_FUNDS: 400,
      PAYMENT_VERIFICATION_FAILED: 403,
      TRANSACTION_BROADCAST_FAILED: 500,
      INVALID_PAYMENT_REQUEST: 400,
    });
  });

  test("x402Error builds the protocol's error object", () => {
    expect(x402Error("PAYMENT_VERIFICATION_FAILED", "no", { reason: "r" })).toEqual({
      status: 403,
      body: { Message: "no", Code: "PAYMENT_VERIFICATION_FAILED", Details: { reason: "r" } },
    });
    expect(x402Error("PAYMENT_EXPIRED", "late").body.Details).toEqual({});
  });

  test("network constants", () => {
    expect(X402_NETWORKS).toEqual({
      devnet: "chain-devnet",
      testnet: "chain-testnet",
      mainnet: "chain-mainnet",
    });
    expect(x402NetworkOf("mainnet-beta")).toBe("chain-mainnet");
    expect(x402NetworkOf("devnet")).toBe("chain-devnet");
    expect(x402NetworkOf("localnet")).toBe("chain-devnet");
    expect(CHAIN_NETWORKS).toEqual(["devnet", "mainnet-beta", "localnet"]);
    expect(DEFAULT_RPC_URL.localnet).toBeUndefined();
  });
});

describe("the message the payer signs", () => {
  test("is the fixed header and every field but the signature, one per line, in the spec's order", () => {
    // The sample authorization's message, written out as a payer's wallet would be shown it.
    expect(authorizationMessage(authorization)).toBe(`x402 payment authorization v1
payment_id=pay_0123456789abcdef
actual_amount=0.10
payment_address=655yRHwUYdMNdvGMDvnExCsHoqhdKrJ1BgsjGwwCQDT5
asset_address=3a6389i6fbMzUa1a5siFBpKBxzfJZ53s56qc15haKAFk
network=chain-devnet
timestamp=2025-06-01T12:01:00.123+02:00
public_key=8a5uiSArRfLkoGX8Myr44L15hddBADyHvqZdFzeM98Ng
transaction_hash=51puwr7wSkmx6bQAxKheZ4WLBtEsBoCNypUgB3RMh5NDHqj2eBpsvvNbWDPwnNgfsGaxFp7vKAY9wjLa4pSgEzF2`);
    expect(AUTHORIZATION_MESSAGE_HEADER).toBe("x402 payment authorization v1");
  });

  test("does not depend on the signature", () => {
    const other: PaymentAuthorization = { ...authorization, signature: authorization.transaction_hash };
    expect(authorizationMessage(other)).toBe(authorizationMessage(authorization));
  });

  test("the memo carries the payment_id", () => {
    expect(paymentMemo("pay_abc12345")).toBe("x402:pay_abc12345");
  });
});
