import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { encodeBase58 } from "../../core/base58.ts";
import {
  checkUnits,
  parseSignature,
  type RawClaim,
  validateClaim,
} from "../../core/payments/payment-claim.ts";
import { PaymentRejectionReason, rejected } from "../../core/payments/payment-rejected.ts";
import { REJECTIONS } from "../../src/payments/payment-rejections.ts";
import { USDC_MINT, WALLET } from "../support/parsed-tx.ts";
import { kindOf, renderedTexts } from "../support/rejection-kind.ts";

const sig64 = (seed: number, zeros = 0) =>
  encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i < zeros ? 0 : (seed * 29 + i * 101 + 1) & 0xff)));
const SIGNATURE = sig64(7);
const claim = (overrides: Partial<RawClaim>): RawClaim => ({
  signature: SIGNATURE,
  amount: 0.05,
  token: "USDC",
  ...overrides,
});
const tagOf = (raw: RawClaim) => {
  const result = validateClaim(raw, 1_000n);
  return Result.isFailure(result) ? kindOf(result.failure) : "ok";
};

describe("validateClaim amount", () => {
  const accepted: ReadonlyArray<readonly [number, number]> = [
    [0.01, 10],
    [0.011, 11],
    [0.05, 50],
    [0.07, 70],
    [0.3, 300],
    [0.999, 999],
    [1, 1000],
    [1.0, 1000],
  ];
  for (const [amount, queries] of accepted) {
    test(`${amount} USDC buys ${queries} queries`, () => {
      const result = validateClaim(claim({ amount }), 1_000n);
      expect(Result.getOrUndefined(result)?.queries).toBe(queries);
      expect<bigint | undefined>(Result.getOrUndefined(result)?.units).toBe(BigInt(queries) * 1000n);
    });
  }

  const refused = [
    0,
    0.009,
    0.0099,
    1.001,
    1.01,
    2,
    0.0105,
    0.0115,
    0.5005,
    0.1 + 0.2,
    1e-7,
    -0.05,
    Number.NaN,
  ];
  for (const amount of refused) {
    test(`${amount} is refused as InvalidAmount`, () => {
      const result = validateClaim(claim({ amount }), 1_000n);
      if (Result.isSuccess(result)) throw new Error("accepted");
      expect(kindOf(result.failure)).toBe("InvalidAmount");
      expect(renderedTexts(result.failure).error).toStartWith("Invalid payment amount: ");
      expect(renderedTexts(result.failure).details).toContain("0.01 to 1.00 USDC");
    });
  }

  test("0.0105 is refused for the 0.001 step, 1.001 for the range", () => {
    const step = validateClaim(claim({ amount: 0.0105 }), 1_000n);
    expect(Result.isFailure(step) && renderedTexts(step.failure).error).toContain("multiple of 0.001");
    const range = validateClaim(claim({ amount: 1.001 }), 1_000n);
    expect(Result.isFailure(range) && renderedTexts(range.failure).error).toContain("from 0.01 to 1.00");
  });

  test("checkUnits bounds are inclusive", () => {
    expect(checkUnits(10_000n, 1_000n)).toBeUndefined();
    expect(checkUnits(1_000_000n, 1_000n)).toBeUndefined();
    expect(checkUnits(9_999n, 1_000n)).toBe("amount-out-of-range");
    expect(checkUnits(9_000n, 1_000n)).toBe("amount-out-of-range");
    expect(checkUnits(1_001_000n, 1_000n)).toBe("amount-out-of-range");
    expect(checkUnits(10_500n, 1_000n)).toBe("amount-not-a-step");
    expect(renderedTexts(rejected("amount-not-a-step")).error).toContain("must be a multiple of 0.001 USDC");
  });
});

describe("validateClaim signature", () => {
  test("base58 of 64 bytes is accepted (and surrounding spaces are trimmed)", () => {
    expect(tagOf(claim({ signature: SIGNATURE }))).toBe("ok");
    expect(tagOf(claim({ signature: ` ${SIGNATURE}\n` }))).toBe("ok");
    const result = validateClaim(claim({ signature: ` ${SIGNATURE} ` }), 1_000n);
    expect<string | undefined>(Result.getOrUndefined(result)?.signature).toBe(SIGNATURE);
  });

  test("64 bytes with leading zero bytes (shorter text) is accepted", () => {
    const withZeros = sig64(3, 20);
    expect(withZeros.length).toBeLessThan(87);
    expect<string | undefined>(parseSignature(withZeros)).toBe(withZeros);
    expect<string | undefined>(parseSignature("1".repeat(64))).toBe("1".repeat(64));
  });

  const bad: ReadonlyArray<readonly [string, string]> = [
    ["a 32-byte address", encodeBase58(Uint8Array.from({ length: 32 }, (_, i) => i + 1))],
    ["63 bytes", encodeBase58(Uint8Array.from({ length: 63 }, (_, i) => i + 1))],
    ["65 bytes", encodeBase58(Uint8Array.from({ length: 65 }, (_, i) => i + 1))],
    ["88 'z's (decodes to 65 bytes)", "z".repeat(88)],
    ["a non-base58 character", `${SIGNATURE.slice(0, -1)}0`],
    ["hex", "ab".repeat(44)],
    ["empty", ""],
    ["spaces only", "   "],
    ["too long", `${SIGNATURE}${SIGNATURE}`],
  ];
  for (const [what, signature] of bad) {
    test(`${what} is refused as InvalidSignature`, () => {
      expect(parseSignature(signature.trim())).toBeUndefined();
      expect(tagOf(claim({ signature }))).toBe("InvalidSignature");
    });
  }
});

describe("validateClaim token and rule order", () => {
  test('token must be exactly "USDC"', () => {
    expect(tagOf(claim({ token: "USDC" }))).toBe("ok");
    for (const token of ["usdc", "SOL", "USDT", "USDC ", " USDC", "", "USD C"])
      expect(tagOf(claim({ token }))).toBe("InvalidToken");
  });

  test("the amount is checked first, then the signature, then the token", () => {
    expect(tagOf({ signature: "", amount: 5, token: "SOL" })).toBe("InvalidAmount");
    expect(tagOf({ signature: "", amount: 0.05, token: "SOL" })).toBe("InvalidSignature");
    expect(tagOf({ signature: SIGNATURE, amount: 0.05, token: "SOL" })).toBe("InvalidToken");
  });
});

describe("payment rejection texts", () => {
  const all = PaymentRejectionReason.literals.map((reason) =>
    rejected(reason, { claimed: 20_000n, received: 10_000n }),
  );
  test("every reason has a short error and details naming what to check", () => {
    for (const error of all) {
      const texts = renderedTexts(error);
      expect(texts.error.length).toBeGreaterThan(0);
      for (const word of ["USDC", "SOL", "amount", "recipient", "confirmed", "devnet", WALLET, USDC_MINT])
        expect(texts.details).toContain(word);
    }
  });
  test("the insufficient amount names both amounts", () => {
    expect(
      renderedTexts(rejected("amount-insufficient", { claimed: 20_000n, received: 10_000n })).error,
    ).toBe("Amount received (0.01 USDC) is lower than claimed (0.02 USDC)");
  });
  test("only not-found, not-confirmed, a spent lookup budget, a busy or cooled-down payer, a handler past its deadline and a failed, pending or in-progress x402 v2 settlement are retryable", () => {
    const retryable = all.filter((error) => REJECTIONS[error.reason].retryable).map(kindOf);
    expect(retryable.sort()).toEqual([
      "ExactHandlerDeadline",
      "ExactPayerBusy",
      "ExactPayerCooledDown",
      "ExactPaymentInProgress",
      "ExactSettlementFailed",
      "ExactSettlementPending",
      "TooManyUnknownTransactions",
      "TransactionNotConfirmed",
      "TransactionNotFound",
    ]);
  });
});
