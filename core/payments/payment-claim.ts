/** Validation of a client's payment claim ({signature, amount, token}) before any chain call. */
import * as Brand from "effect/Brand";
import * as Result from "effect/Result";
import { decodeBase58 } from "../base58.ts";
import { type BaseUnits, numberToUnits } from "./money.ts";
import { type PaymentRejected, rejected } from "./payment-rejected.ts";
import { largestPurchase, queriesFor, smallestPurchase } from "./question-price.ts";

export type TxSignature = string & Brand.Brand<"TxSignature">;
const TxSignature = Brand.nominal<TxSignature>();

/** base58 text that decodes to exactly 64 bytes. */
export const parseSignature = (text: string): TxSignature | undefined => {
  if (text.length < 64 || text.length > 88) return undefined;
  const bytes = decodeBase58(text);
  return bytes?.length === 64 ? TxSignature(text) : undefined;
};

/** Checks a base-unit amount against the purchase bounds at this price and the price's step. */
export const checkUnits = (
  units: bigint,
  unitsPerQuery: bigint,
): "amount-out-of-range" | "amount-not-a-step" | undefined => {
  if (units < smallestPurchase(unitsPerQuery) || units > largestPurchase(unitsPerQuery))
    return "amount-out-of-range";
  if (units % unitsPerQuery !== 0n) return "amount-not-a-step";
  return undefined;
};

export interface PaymentClaim {
  readonly signature: TxSignature;
  readonly units: BaseUnits;
  readonly queries: number;
}

export interface RawClaim {
  readonly signature: string;
  readonly amount: number;
  readonly token: string;
}

/**
 * Validates a claim at the price of a question; the first failing rule wins, in the order
 * amount, signature, token.
 */
export const validateClaim = (
  raw: RawClaim,
  unitsPerQuery: bigint,
): Result.Result<PaymentClaim, PaymentRejected> => {
  const units = numberToUnits(raw.amount);
  if (Result.isFailure(units)) return Result.fail(rejected("amount-not-decimal"));
  const rangeProblem = checkUnits(units.success, unitsPerQuery);
  if (rangeProblem !== undefined) return Result.fail(rejected(rangeProblem, { claimed: units.success }));
  const signature = parseSignature(raw.signature.trim());
  if (signature === undefined) return Result.fail(rejected("signature-malformed"));
  if (raw.token !== "USDC") return Result.fail(rejected("token-not-usdc"));
  return Result.succeed({
    signature,
    units: units.success,
    queries: queriesFor(units.success, unitsPerQuery),
  });
};
