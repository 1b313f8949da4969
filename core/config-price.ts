/**
 * PRICE_PER_QUESTION: what one paid question costs, in USDC ("0.002"), exact to the base unit
 * (core/payments/question-price.ts has the bounds and what they do to the accepted amounts).
 * Unset: 0.001 USDC, the price the service always had.
 */
import * as Result from "effect/Result";
import type { Reader } from "./config-reader.ts";
import { DEFAULT_UNITS_PER_QUERY, parsePrice } from "./payments/question-price.ts";

/** The price of a question in base units. */
export const parseUnitsPerQuery = (read: Reader): bigint => {
  const text = read.text("PRICE_PER_QUESTION");
  if (text === undefined) return DEFAULT_UNITS_PER_QUERY;
  const price = parsePrice(text);
  if (Result.isSuccess(price)) return price.success;
  read.problems.push(`PRICE_PER_QUESTION: ${price.failure} (got "${text}")`);
  return DEFAULT_UNITS_PER_QUERY;
};
