/** The price of a question and the payments it allows (core/payments/question-price.ts). */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import fc from "fast-check";
import { MAX_PAYMENT_UNITS, MIN_PAYMENT_UNITS } from "../../core/payments/money.ts";
import { checkUnits } from "../../core/payments/payment-claim.ts";
import {
  largestPurchase,
  parsePrice,
  priceProblem,
  queriesFor,
  smallestPurchase,
} from "../../core/payments/question-price.ts";
import { widgetAmounts } from "../../src/payments/payment-info.ts";
import { mcpToolResource } from "../../src/payments/priced-resources.ts";

describe("the purchase bounds at a price", () => {
  test.each([
    [1_000n, 10_000n, 1_000_000n],
    [2_000n, 10_000n, 1_000_000n],
    [3_000n, 12_000n, 999_000n],
    [7n, 10_003n, 999_999n],
    [50_000n, 50_000n, 1_000_000n],
    [300_000n, 300_000n, 900_000n],
    [1_000_000n, 1_000_000n, 1_000_000n],
  ])("at %p base units a question: %p to %p", (price, smallest, largest) => {
    expect<bigint>(smallestPurchase(price)).toBe(smallest);
    expect<bigint>(largestPurchase(price)).toBe(largest);
  });

  test("any price: the bounds are whole questions, at least one, within 0.01 .. 1.00 unless one question costs more than 0.01", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_PAYMENT_UNITS }), (price) => {
        const [low, high] = [smallestPurchase(price), largestPurchase(price)];
        expect(low % price).toBe(0n);
        expect(high % price).toBe(0n);
        expect(queriesFor(low, price)).toBeGreaterThanOrEqual(1);
        expect(low).toBeLessThanOrEqual(high);
        expect(high).toBeLessThanOrEqual(MAX_PAYMENT_UNITS);
        expect(low >= MIN_PAYMENT_UNITS && low - price < MIN_PAYMENT_UNITS).toBe(true);
        expect(checkUnits(low, price)).toBeUndefined();
        expect(checkUnits(high, price)).toBeUndefined();
        expect(checkUnits(low - 1n, price)).toBe("amount-out-of-range");
        expect(checkUnits(high + 1n, price)).toBe("amount-out-of-range");
        for (const units of widgetAmounts(price).map((amount) => BigInt(Math.round(amount * 1e6))))
          expect(checkUnits(units, price)).toBeUndefined();
      }),
    );
  });

  test("a price is 0.000001 to 1.00 USDC", () => {
    expect<bigint | undefined>(Result.getOrUndefined(parsePrice("0.0025"))).toBe(2_500n);
    expect(priceProblem(0n)).toBe("must be from 0.000001 to 1.00 USDC a question");
    expect(priceProblem(1_000_001n)).toBeDefined();
    expect(Result.isFailure(parsePrice("1.5"))).toBe(true);
  });

  test("an MCP tool's offer buys one call, never less than the smallest purchase, at the price", () => {
    expect<bigint>(mcpToolResource("ask_docs", 1, 1_000n).units).toBe(10_000n);
    expect<bigint>(mcpToolResource("ask_docs", 20, 1_000n).units).toBe(20_000n);
    expect(mcpToolResource("ask_docs", 1, 3_000n)).toMatchObject({
      units: 12_000n,
      description: "Questions to the docs assistant: 4 for 0.012 USDC; ask_docs takes one question per call",
    });
    expect<bigint>(mcpToolResource("ask_docs", 5, 3_000n).units).toBe(15_000n);
  });
});
