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
import { decodeBase58, isBase58Address } from "./base58.ts";
import { MIN_SECRET_LENGTH } from "./config-insights.ts";
import type { Reader } from "./config-reader.ts";
import { MAX_PAYMENT_UNITS, parseDecimalUnits } from "./payments/money.ts";
import { DEFAULT_SPONSOR_LOSS_LAMPORTS_PER_HOUR } from "./payments/sponsor-losses.ts";

export interface X402Config {
  /** The fee payer's 64-byte secret key; undefined: x402 v2 not offered. */
  readonly feePayerSecretKey: Redacted.Redacted<Uint8Array> | undefined;
  /** The bearer token of the facilitator endpoints; undefined: they are not served. */
  readonly facilitatorToken: Redacted.Redacted<string> | undefined;
  /** The most one payment may cost the fee payer (signatures and priority fee), in lamports. */
  readonly maxSponsorFeeLamports: number;
  /** Below this SOL balance (lamports) the fee payer is not offered: x402 v2 leaves the 402s. */
  readonly minSponsorBalanceLamports: number;
  /** The lamports failed settlements may cost the fee payer per UTC hour; past them x402 v2 is withdrawn. */
  readonly sponsorLossLamportsPerHour: number;
  /** The owners whose payments the facilitator API sponsors; empty: the service's own wallet only. */
  readonly facilitatorPayTo: ReadonlyArray<string>;
  /** The least amount it sponsors, in USDC base units; undefined: the smallest price offered. */
  readonly facilitatorMinUnits: bigint | undefined;
  /** X402_PAYMENT_ID_REQUIRED: every x402 v2 payment must carry a payment identifier (default false). */
  readonly paymentIdRequired: boolean;
}

/** Two signatures' base fee: less could not pay for any payment. */
const MIN_SPONSOR_FEE_LAMPORTS = 10_000;
/** 0.001 SOL: more than any payment needs. */
const MAX_SPONSOR_FEE_LAMPORTS = 1_000_000;

const secretKeyBytes = (value: string): Uint8Array | undefined => {
  const text = value.trim();
  if (!text.startsWith("[")) return decodeBase58(text);
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || !parsed.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
      return undefined;
    return Uint8Array.from(parsed as number[]);
  } catch {
    return undefined;
  }
};

const parsePayTo = (read: Reader): ReadonlyArray<string> => {
  const list = (read.text("X402_FACILITATOR_PAY_TO") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const bad = list.filter((entry) => !isBase58Address(entry));
  if (bad.length > 0)
    read.problems.push(`X402_FACILITATOR_PAY_TO: not base58 addresses (got "${bad.join(", ")}")`);
  return bad.length > 0 ? [] : list;
};

const parseMinUnits = (read: Reader): bigint | undefined => {
  const text = read.text("X402_FACILITATOR_MIN_AMOUNT");
  if (text === undefined) return undefined;
  const units = parseDecimalUnits(text);
  if (Result.isSuccess(units) && units.success > 0n && units.success <= MAX_PAYMENT_UNITS)
    return units.success;
  read.problems.push(`X402_FACILITATOR_MIN_AMOUNT: must be a USDC amount from 0.000001 to 1 (got "${text}")`);
  return undefined;
};

export const parseX402 = (read: Reader): X402Config => {
  const { problems, text } = read;
  const secret = text("X402_FEE_PAYER_SECRET_KEY");
  const bytes = secret === undefined ? undefined : secretKeyBytes(secret);
  if (secret !== undefined && bytes?.length !== 64)
    problems.push(
      "X402_FEE_PAYER_SECRET_KEY: must be a JSON list of 64 numbers (0-255) or the base58 of 64 bytes (value hidden)",
    );
  const token = text("X402_FACILITATOR_TOKEN");
  const explicit = text("X402_FACILITATOR_API") !== undefined;
  // The token and the fee payer are what the endpoints need, so together they turn them on;
  // X402_FACILITATOR_API, once required beside them, still decides when it is set.
  const apiOn = explicit ? read.flag("X402_FACILITATOR_API") : token !== undefined && secret !== undefined;
  if (apiOn && (token === undefined || token.length < MIN_SECRET_LENGTH))
    problems.push(
      `X402_FACILITATOR_TOKEN: required with X402_FACILITATOR_API, at least ${MIN_SECRET_LENGTH} characters`,
    );
  if (apiOn && secret === undefined)
    problems.push("X402_FACILITATOR_API: needs X402_FEE_PAYER_SECRET_KEY (the facilitator's fee payer)");
  const maxSponsorFee = read.integer(
    "X402_MAX_SPONSOR_FEE_LAMPORTS",
    15_000,
    MIN_SPONSOR_FEE_LAMPORTS,
    MAX_SPONSOR_FEE_LAMPORTS,
  );
  const minSponsorBalance = read.integer(
    "X402_MIN_SPONSOR_BALANCE_LAMPORTS",
    5_000_000,
    0,
    1_000_000_000_000,
  );
  const sponsorLossPerHour = read.integer(
    "X402_SPONSOR_LOSS_LAMPORTS_PER_HOUR",
    DEFAULT_SPONSOR_LOSS_LAMPORTS_PER_HOUR,
    0,
    1_000_000_000_000,
  );
  return {
    maxSponsorFeeLamports: maxSponsorFee,
    minSponsorBalanceLamports: minSponsorBalance,
    sponsorLossLamportsPerHour: sponsorLossPerHour,
    feePayerSecretKey: bytes?.length === 64 ? Redacted.make(bytes) : undefined,
    facilitatorToken: apiOn && token !== undefined ? Redacted.make(token) : undefined,
    facilitatorPayTo: parsePayTo(read),
    facilitatorMinUnits: parseMinUnits(read),
    paymentIdRequired: read.flag("X402_PAYMENT_ID_REQUIRED"),
  };
};
