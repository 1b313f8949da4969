/**
 * The price of one question (PaymentTerms.unitsPerQuery, a setting per site) and the payments it
 * allows. Rule: a payment buys a whole number of questions, at least one, and lies within the
 * service's purchase bounds, MIN_PAYMENT_UNITS (0.01 USDC) and MAX_PAYMENT_UNITS (1.00 USDC).
 * Arithmetic, for a price p in [MIN_UNITS_PER_QUERY, MAX_UNITS_PER_QUERY] base units:
 *   smallest purchase = ceil(MIN_PAYMENT_UNITS / p) x p   (p = 3,000: 12,000, 4 questions)
 *   largest purchase  = floor(MAX_PAYMENT_UNITS / p) x p  (p = 3,000: 999,000, 333 questions)
 *   questions bought  = floor(units / p)
 * With the default p = 1,000 (0.001 USDC) that is 0.01 to 1.00 in steps of 0.001, as always.
 * Reason: below 0.01 a transfer costs the payer (and, in x402 v2, the fee payer) a fee close to
 * what it buys, and above 1.00 a mistaken amount is costly; the bounds move up to the next whole
 * question (never down below 0.01) so that every accepted payment is whole questions. A price
 * above MAX_PAYMENT_UNITS would leave no payment possible, so it is refused as a setting.
 */
import * as Result from "effect/Result";
import {
  type BaseUnits,
  formatUnits,
  MAX_PAYMENT_UNITS,
  MIN_PAYMENT_UNITS,
  parseDecimalUnits,
  BaseUnits as units,
} from "./money.ts";

/** The price of a question unless a site says otherwise: 0.001 USDC. */
export const DEFAULT_UNITS_PER_QUERY = 1_000n;
/** One base unit (0.000001 USDC): the least a question may cost. */
export const MIN_UNITS_PER_QUERY = 1n;
/** 1.00 USDC: a question may cost at most the largest purchase, so one question can still be bought. */
export const MAX_UNITS_PER_QUERY = MAX_PAYMENT_UNITS;

/** Why `unitsPerQuery` cannot be a price, or undefined when it can. */
export const priceProblem = (unitsPerQuery: bigint): string | undefined =>
  unitsPerQuery < MIN_UNITS_PER_QUERY || unitsPerQuery > MAX_UNITS_PER_QUERY
    ? `must be from ${formatUnits(MIN_UNITS_PER_QUERY)} to ${formatUnits(MAX_UNITS_PER_QUERY)} USDC a question`
    : undefined;

/** A price as text ("0.002", USDC a question) -> base units, or why it cannot be one. */
export const parsePrice = (text: string): Result.Result<BaseUnits, string> =>
  Result.flatMap(parseDecimalUnits(text), (price) => {
    const problem = priceProblem(price);
    return problem === undefined ? Result.succeed(price) : Result.fail(problem);
  });

/** The smallest payment accepted at this price: whole questions, at least 0.01 USDC. */
export const smallestPurchase = (unitsPerQuery: bigint): BaseUnits =>
  units(((MIN_PAYMENT_UNITS + unitsPerQuery - 1n) / unitsPerQuery) * unitsPerQuery);

/** The largest payment accepted at this price: whole questions, at most 1.00 USDC. */
export const largestPurchase = (unitsPerQuery: bigint): BaseUnits =>
  units((MAX_PAYMENT_UNITS / unitsPerQuery) * unitsPerQuery);

/** Questions bought by a payment at this price (a remainder below one question buys nothing). */
export const queriesFor = (paid: bigint, unitsPerQuery: bigint): number => Number(paid / unitsPerQuery);
