/**
 * The x402 v2 part of the configuration. X402_FEE_PAYER_SECRET_KEY is the facilitator's fee
 * payer (JSON list of 64 bytes, as solana-keygen writes it, or base58 of the 64 bytes): it
 * co-signs and pays the fees of clients' transfers, so it holds SOL only. Without it the v2
 * dialect is not offered. X402_FACILITATOR_TOKEN with the fee payer switches the standard
 * facilitator endpoints (/x402/verify, /x402/settle, /x402/supported) on, for callers bearing it
 * (X402_FACILITATOR_API, when set, still decides: `false` keeps them off);
 * they sponsor only transfers to X402_FACILITATOR_PAY_TO (default: PAYMENT_WALLET_ADDRESS) of
 * at least X402_FACILITATOR_MIN_AMOUNT USDC (default: 0.01, the smallest price offered).
 * X402_PAYMENT_ID_REQUIRED makes the 402s declare x402's payment identifier required: a v2
 * payment without one is then refused (400) rather than served without retry safety.
 * Secret values are never shown in a problem.
 */
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { decodeBase58, isBase58Address } from "../base58.ts";
import { MAX_PAYMENT_UNITS, parseDecimalUnits } from "../payments/money.ts";
import {
  type Decoded,
  envInteger,
  Flag,
  field,
  jsonBytes,
  MIN_SECRET_LENGTH,
  rule,
} from "./config-fields.ts";

export interface X402Config {
  /** The fee payer's 64-byte secret key; undefined: x402 v2 not offered. */
  readonly feePayerSecretKey: Redacted.Redacted<Uint8Array> | undefined;
  /** The bearer token of the facilitator endpoints; undefined: they are not served. */
  readonly facilitatorToken: Redacted.Redacted<string> | undefined;
  /** The most one payment may cost the fee payer (signatures and priority fee), in lamports. */
  readonly maxSponsorFeeLamports: number;
  /** Below this SOL balance (lamports) the fee payer is not offered: x402 v2 leaves the 402s. */
  readonly minSponsorBalanceLamports: number;
  /** The owners whose payments the facilitator API sponsors; empty: the service's own wallet only. */
  readonly facilitatorPayTo: ReadonlyArray<string>;
  /** The least amount it sponsors, in USDC base units; undefined: the smallest price offered. */
  readonly facilitatorMinUnits: bigint | undefined;
  /** X402_PAYMENT_ID_REQUIRED: every x402 v2 payment must carry a payment identifier (default false). */
  readonly paymentIdRequired: boolean;
}

/** Two signatures' base fee: less could not pay for any payment; 0.001 SOL: more than any payment needs. */
const SPONSOR_FEE = { min: 10_000, default: 15_000, max: 1_000_000 } as const;
const MIN_SPONSOR_BALANCE = 5_000_000;

const secretKeyBytes = (text: string): Uint8Array | undefined =>
  text.startsWith("[") ? jsonBytes(text) : decodeBase58(text);

const entries = (text: string) =>
  text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");

/** The x402 variables, as fields of the service's settings (core/config/config-service.ts). */
export const X402_FIELDS = {
  X402_FEE_PAYER_SECRET_KEY: field(
    "must be a JSON list of 64 numbers (0-255) or the base58 of 64 bytes",
    (input) => {
      const bytes = secretKeyBytes(String(input));
      return bytes?.length === 64 ? Redacted.make(bytes) : undefined;
    },
    true,
  ),
  // Judged with the switch below: a short token is named as required there.
  X402_FACILITATOR_TOKEN: rule((input) => Result.succeed(Redacted.make(String(input)))),
  X402_FACILITATOR_API: Flag,
  X402_FACILITATOR_PAY_TO: rule((input) => {
    const bad = entries(String(input)).filter((entry) => !isBase58Address(entry));
    return bad.length > 0
      ? Result.fail(`not base58 addresses (got "${bad.join(", ")}")`)
      : Result.succeed(entries(String(input)));
  }),
  X402_FACILITATOR_MIN_AMOUNT: rule((input) => {
    const units = parseDecimalUnits(String(input));
    return Result.isSuccess(units) && units.success > 0n && units.success <= MAX_PAYMENT_UNITS
      ? Result.succeed(units.success)
      : Result.fail(`must be a USDC amount from 0.000001 to 1 (got "${input}")`);
  }),
  X402_MAX_SPONSOR_FEE_LAMPORTS: envInteger(SPONSOR_FEE.min, SPONSOR_FEE.max),
  X402_MIN_SPONSOR_BALANCE_LAMPORTS: envInteger(0, 1_000_000_000_000),
  X402_PAYMENT_ID_REQUIRED: Flag,
};

type X402Settings = Decoded<typeof X402_FIELDS>;

/** The x402 settings; the facilitator's switch and what it needs are judged on the text as written. */
export const x402Of = (
  s: X402Settings,
  text: (name: string) => string | undefined,
  problems: string[],
): X402Config => {
  const token = text("X402_FACILITATOR_TOKEN");
  const secret = text("X402_FEE_PAYER_SECRET_KEY");
  // The token and the fee payer are what the endpoints need, so together they turn them on;
  // X402_FACILITATOR_API, once required beside them, still decides when it is set.
  const apiOn =
    text("X402_FACILITATOR_API") === undefined
      ? token !== undefined && secret !== undefined
      : s.X402_FACILITATOR_API === true;
  if (apiOn && (token === undefined || token.length < MIN_SECRET_LENGTH))
    problems.push(
      `X402_FACILITATOR_TOKEN: required with X402_FACILITATOR_API, at least ${MIN_SECRET_LENGTH} characters`,
    );
  if (apiOn && secret === undefined)
    problems.push("X402_FACILITATOR_API: needs X402_FEE_PAYER_SECRET_KEY (the facilitator's fee payer)");
  return {
    feePayerSecretKey: s.X402_FEE_PAYER_SECRET_KEY,
    facilitatorToken: apiOn ? s.X402_FACILITATOR_TOKEN : undefined,
    maxSponsorFeeLamports: s.X402_MAX_SPONSOR_FEE_LAMPORTS ?? SPONSOR_FEE.default,
    minSponsorBalanceLamports: s.X402_MIN_SPONSOR_BALANCE_LAMPORTS ?? MIN_SPONSOR_BALANCE,
    facilitatorPayTo: s.X402_FACILITATOR_PAY_TO ?? [],
    facilitatorMinUnits: s.X402_FACILITATOR_MIN_AMOUNT,
    paymentIdRequired: s.X402_PAYMENT_ID_REQUIRED ?? false,
  };
};
