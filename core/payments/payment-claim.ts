/** Validation of a client's payment claim ({signature, amount, token}) before any chain call. */
import { Brand, Result } from "effect";
import { decodeBase58 } from "../base58.ts";
import {
  type BaseUnits,
  MAX_PAYMENT_UNITS,
  MIN_PAYMENT_UNITS,
  numberToUnits,
  queriesFor,
  UNITS_PER_QUERY,
} from "./money.ts";
import { type PaymentRejected, rejected } from "./payment-rejected.ts";

export type TxSignature = string & Brand.Brand<"TxSignature">;
const TxSignature = Brand.nominal<TxSignature>();

/** base58 text that decodes to exactly 64 bytes. */
export const parseSignature = (text: string): TxSignature | undefined => {
  if (text.length < 64 || text.length > 88) return undefined;
  const bytes = decodeBase58(text);
  return bytes?.length === 64 ? TxSignature(text) : undefined;
};

/** Checks a base-unit amount against the allowed range and the 0.001 step. */
export const checkUnits = (units: bigint): "amount-out-of-range" | "amount-not-a-step" | undefined => {
  if (units < MIN_PAYMENT_UNITS || units > MAX_PAYMENT_UNITS) return "amount-out-of-range";
  if (units % UNITS_PER_QUERY !== 0n) return "amount-not-a-step";
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

/** Validates a claim; the first failing rule wins, in the order amount, signature, token. */
export const validateClaim = (raw: RawClaim): Result.Result<PaymentClaim, PaymentRejected> => {
  const units = numberToUnits(raw.amount);
  if (Result.isFailure(units)) return Result.fail(rejected("amount-not-decimal"));
  const rangeProblem = checkUnits(units.success);
  if (rangeProblem !== undefined) return Result.fail(rejected(rangeProblem, { claimed: units.success }));
  const signature = parseSignature(raw.signature.trim());
  if (signature === undefined) return Result.fail(rejected("signature-malformed"));
  if (raw.token !== "USDC") return Result.fail(rejected("token-not-usdc"));
  return Result.succeed({ signature, units: units.success, queries: queriesFor(units.success) });
};
