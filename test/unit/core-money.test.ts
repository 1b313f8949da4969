import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import {
  BaseUnits,
  formatUnits,
  minimumAccepted,
  numberToUnits,
  parseDecimalUnits,
} from "../../core/payments/money.ts";
import { queriesFor } from "../../core/payments/question-price.ts";

const units = (result: Result.Result<bigint, string>): bigint => {
  if (Result.isFailure(result)) throw new Error(`expected units, got failure: ${result.failure}`);
  return result.success;
};
const refusal = (result: Result.Result<bigint, string>): string => {
  if (Result.isSuccess(result)) throw new Error(`expected a refusal, got ${result.success}`);
  return result.failure;
};

describe("parseDecimalUnits", () => {
  const good: ReadonlyArray<readonly [string, bigint]> = [
    ["0", 0n],
    ["1", 1_000_000n],
    ["1.0", 1_000_000n],
    ["1.000", 1_000_000n],
    ["0.01", 10_000n],
    ["0.05", 50_000n],
    ["0.001", 1_000n],
    ["0.000001", 1n],
    ["0.07", 70_000n],
    ["12.345678", 12_345_678n],
    ["0.100000000000000000", 100_000n],
    [" 0.5 ", 500_000n],
    ["999999999999999", 999_999_999_999_999_000_000n],
  ];
  for (const [text, expected] of good)
    test(`"${text}" -> ${expected}`, () => expect(units(parseDecimalUnits(text))).toBe(expected));

  const bad: ReadonlyArray<readonly [string, string]> = [
    ["1.0000001", "more than 6 decimal places"],
    ["0.0000005", "more than 6 decimal places"],
    ["-1", "not a plain decimal number"],
    ["-0.5", "not a plain decimal number"],
    ["1e-7", "not a plain decimal number"],
    ["1e3", "not a plain decimal number"],
    ["", "not a plain decimal number"],
    [".5", "not a plain decimal number"],
    ["1.", "not a plain decimal number"],
    ["1,5", "not a plain decimal number"],
    ["0x10", "not a plain decimal number"],
    ["NaN", "not a plain decimal number"],
    ["Infinity", "not a plain decimal number"],
    ["+1", "not a plain decimal number"],
    ["1.2.3", "not a plain decimal number"],
    ["1234567890123456", "not a plain decimal number"],
  ];
  for (const [text, why] of bad)
    test(`"${text}" refused: ${why}`, () => expect(refusal(parseDecimalUnits(text))).toBe(why));
});

describe("numberToUnits", () => {
  test("0.07 is exactly 70000 units (float 0.07 is not 7/100, but its shortest text is)", () => {
    expect(0.07 * 100).not.toBe(7);
    expect(units(numberToUnits(0.07))).toBe(70_000n);
  });
  test("common amounts", () => {
    expect(units(numberToUnits(0.01))).toBe(10_000n);
    expect(units(numberToUnits(1))).toBe(1_000_000n);
    expect(units(numberToUnits(0.3))).toBe(300_000n);
    expect(units(numberToUnits(0.123))).toBe(123_000n);
    expect(units(numberToUnits(0))).toBe(0n);
  });
  test("0.1 + 0.2 is refused (it is 0.30000000000000004)", () => {
    expect(refusal(numberToUnits(0.1 + 0.2))).toBe("more than 6 decimal places");
  });
  test("1e-7 is refused (String gives exponent notation)", () => {
    expect(refusal(numberToUnits(1e-7))).toBe("not a plain decimal number");
  });
  test("1.0000001 is refused", () =>
    expect(refusal(numberToUnits(1.0000001))).toBe("more than 6 decimal places"));
  test("negative, NaN and infinities are refused", () => {
    for (const n of [-0.05, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(refusal(numberToUnits(n))).toBe("not a finite amount");
  });
  test("huge numbers in exponent notation are refused", () => {
    expect(Result.isFailure(numberToUnits(1e21))).toBe(true);
  });
});

describe("formatUnits", () => {
  const cases: ReadonlyArray<readonly [bigint, string]> = [
    [0n, "0.00"],
    [1n, "0.000001"],
    [1_000n, "0.001"],
    [10_000n, "0.01"],
    [50_000n, "0.05"],
    [100_000n, "0.10"],
    [123_000n, "0.123"],
    [1_000_000n, "1.00"],
    [12_345_678n, "12.345678"],
    [98_999n, "0.098999"],
  ];
  for (const [value, text] of cases)
    test(`${value} -> "${text}"`, () => expect(formatUnits(value)).toBe(text));
  test("formatting then parsing gives the same units", () => {
    for (const [value] of cases) expect(units(parseDecimalUnits(formatUnits(value)))).toBe(value);
  });
});

describe("queriesFor", () => {
  test("one query per 0.001 USDC", () => {
    expect(queriesFor(BaseUnits(10_000n), 1_000n)).toBe(10);
    expect(queriesFor(BaseUnits(50_000n), 1_000n)).toBe(50);
    expect(queriesFor(BaseUnits(123_000n), 1_000n)).toBe(123);
    expect(queriesFor(BaseUnits(1_000_000n), 1_000n)).toBe(1000);
    expect(queriesFor(BaseUnits(1_000n), 1_000n)).toBe(1);
  });
});

describe("minimumAccepted (claim minus 1%, rounded up to a whole unit)", () => {
  const cases: ReadonlyArray<readonly [bigint, bigint]> = [
    [100_000n, 99_000n],
    [10_000n, 9_900n],
    [1_000_000n, 990_000n],
    [100_001n, 99_001n],
    [123_456n, 122_222n],
    [1n, 1n],
    [0n, 0n],
  ];
  for (const [claimed, least] of cases)
    test(`${claimed} -> ${least}`, () => expect(minimumAccepted(BaseUnits(claimed))).toBe(least));
  test("never more than the claim and never below 99% of it", () => {
    for (let claimed = 0n; claimed <= 3_000n; claimed += 7n) {
      const least = minimumAccepted(BaseUnits(claimed));
      expect(least <= claimed).toBe(true);
      expect(least * 100n >= claimed * 99n).toBe(true);
      expect((least - 1n) * 100n < claimed * 99n).toBe(true);
    }
  });
});
