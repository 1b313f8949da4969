import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import fc from "fast-check";
import { decodeBase58, encodeBase58 } from "../../core/base58.ts";
import {
  BaseUnits,
  formatUnits,
  minimumAccepted,
  numberToUnits,
  parseDecimalUnits,
} from "../../core/payments/money.ts";
import { validateClaim } from "../../core/payments/payment-claim.ts";
import { txSignature } from "../support/core-arbitraries.ts";
import { kindOf } from "../support/rejection-kind.ts";

const RUNS = { numRuns: 1000 };
const unitsOf = (result: Result.Result<bigint, string>) =>
  Result.isSuccess(result) ? result.success : undefined;

describe("decimal <-> base units", () => {
  test("every valid payment amount (k * 0.001 USDC, 0.01..1.00) converts exactly, as text and as a JS number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 1000 }), txSignature, (k, signature) => {
        const units = BigInt(k) * 1000n;
        const text = formatUnits(units);
        expect(unitsOf(parseDecimalUnits(text))).toBe(units);
        expect(unitsOf(numberToUnits(Number(text)))).toBe(units);
        expect(unitsOf(numberToUnits(k / 1000))).toBe(units);
        const claim = validateClaim({ signature, amount: k / 1000, token: "USDC" }, 1_000n);
        expect(Result.getOrUndefined(claim)?.queries).toBe(k);
      }),
      RUNS,
    );
  });

  test("format then parse is the identity on any amount of base units", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), (units) => {
        expect(unitsOf(parseDecimalUnits(formatUnits(units)))).toBe(units);
      }),
      RUNS,
    );
  });

  test("text with more than 6 significant decimals is always refused", () => {
    fc.assert(
      fc.property(fc.nat({ max: 1000 }), fc.stringMatching(/^\d{6}[1-9]$/), (whole, fraction) => {
        expect(Result.isFailure(parseDecimalUnits(`${whole}.${fraction}`))).toBe(true);
      }),
      RUNS,
    );
  });

  test("amounts off the 0.001 grid are refused by the claim rules", () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_000, max: 1_000_000 }), txSignature, (units, signature) => {
        fc.pre(units % 1000 !== 0);
        const claim = validateClaim({ signature, amount: units / 1_000_000, token: "USDC" }, 1_000n);
        expect(Result.isFailure(claim) && kindOf(claim.failure)).toBe("InvalidAmount");
      }),
      RUNS,
    );
  });

  test("the tolerance accepts exactly the amounts >= 99% of the claim", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2_000_000n }),
        fc.bigInt({ min: 0n, max: 2_000_000n }),
        (claimed, received) => {
          const accepted = received >= minimumAccepted(BaseUnits(claimed));
          expect(accepted).toBe(received * 100n >= claimed * 99n);
        },
      ),
      RUNS,
    );
  });
});

describe("base58", () => {
  test("decode(encode(bytes)) is the identity", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) =>
        expect(decodeBase58(encodeBase58(bytes))).toEqual(bytes),
      ),
      RUNS,
    );
  });

  test("encode(decode(text)) is the identity on the alphabet", () => {
    const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    const text = fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 90 });
    fc.assert(
      fc.property(text, (value) => {
        const bytes = decodeBase58(value);
        expect(bytes).toBeDefined();
        expect(encodeBase58(bytes ?? new Uint8Array())).toBe(value);
      }),
      RUNS,
    );
  });
});
