/**
 * USDC amounts. Everything that touches money is an integer count of base units (bigint);
 * decimals only exist at the edge, parsed here with integer math.
 */
import * as Brand from "effect/Brand";
import * as Result from "effect/Result";

export const USDC_DECIMALS = 6;
/** Base units per whole USDC (10^6). */
export const UNITS_PER_USDC = 1_000_000n;
/**
 * Bounds of a payment: 0.01 and 1.00 USDC. The price of a question is a setting; at that price
 * the bounds move to whole questions (question-price.ts).
 */
export const MIN_PAYMENT_UNITS = 10_000n;
export const MAX_PAYMENT_UNITS = 1_000_000n;
/** Verification accepts a transfer this many percent below the claim. */
export const TOLERANCE_PERCENT = 1n;

export type BaseUnits = bigint & Brand.Brand<"BaseUnits">;
export const BaseUnits = Brand.nominal<BaseUnits>();

const DECIMAL = /^(\d{1,15})(?:\.(\d{1,18}))?$/;

/**
 * Decimal text ("0.05", "1", "1.000") -> base units, exactly. Fails on anything that is not a
 * plain non-negative decimal or that has precision below one base unit.
 */
export const parseDecimalUnits = (text: string): Result.Result<BaseUnits, string> => {
  const match = DECIMAL.exec(text.trim());
  if (match === null) return Result.fail("not a plain decimal number");
  const whole = match[1] ?? "0";
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > USDC_DECIMALS) return Result.fail("more than 6 decimal places");
  const units = BigInt(whole) * UNITS_PER_USDC + BigInt(fraction.padEnd(USDC_DECIMALS, "0") || "0");
  return Result.succeed(BaseUnits(units));
};

/**
 * A JSON number -> base units. `String(n)` gives the shortest text that round-trips to the same
 * double, so 0.07 stays "0.07" while 0.1 + 0.2 becomes "0.30000000000000004" and is refused.
 */
export const numberToUnits = (amount: number): Result.Result<BaseUnits, string> =>
  Number.isFinite(amount) && amount >= 0
    ? parseDecimalUnits(String(amount))
    : Result.fail("not a finite amount");

/** Base units -> canonical decimal text with at least two decimals ("0.05", "1.00", "0.123"). */
export const formatUnits = (units: bigint): string => {
  const whole = units / UNITS_PER_USDC;
  const fraction = (units % UNITS_PER_USDC).toString().padStart(USDC_DECIMALS, "0").replace(/0+$/, "");
  return `${whole}.${fraction.padEnd(2, "0")}`;
};

/** Least amount received that still satisfies a claim (claim minus 1%, rounded up). */
export const minimumAccepted = (claimed: BaseUnits): bigint =>
  (claimed * (100n - TOLERANCE_PERCENT) + 99n) / 100n;
