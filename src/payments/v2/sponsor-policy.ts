/**
 * What the fee payer signs for: the x402 "exact" scheme's sponsor acceptance policy
 * (scheme_exact_svm.md §2), stricter where the sponsor's SOL is at stake. The fee payer pays
 * 5,000 lamports per required signature plus the priority fee (compute-unit limit x price, in
 * micro-lamports), whatever the transaction does. So: exactly one SetComputeUnitLimit (without
 * one the runtime's default, 200,000 units per instruction, would be paid for), at most one
 * SetComputeUnitPrice (at most 5 lamports per unit, the scheme's static-path cap), exactly two
 * required signers (the fee payer and the transfer's authority), and a worst case per payment
 * of at most `maxFeeLamports` (X402_MAX_SPONSOR_FEE_LAMPORTS). With the default 15,000
 * lamports, a payment costs the fee payer at most 0.000015 SOL: less than the smallest
 * purchase, 0.01 USDC, at any SOL price below 666 USD (docs/x402.md has the arithmetic).
 */
import type { PaymentRejectionReason } from "../../../core/payments/payment-rejected.ts";
import type { Shape } from "./exact-instructions.ts";

export const LAMPORTS_PER_SIGNATURE = 5_000n;
/** The fee payer and the transfer's authority: nobody else's signature is paid for. */
export const REQUIRED_SIGNERS = 2;
/** The scheme's static path: the budget, the transfer, and up to four memo or Lighthouse instructions. */
export const MAX_INSTRUCTIONS = 7;
export const MAX_OPTIONAL_INSTRUCTIONS = 4;
/** The scheme's static-path cap on the compute-unit price: 5 lamports per unit. */
export const MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS = 5_000_000n;
/** The default worst case per payment: two signatures and 5,000 lamports of priority fee. */
export const DEFAULT_MAX_SPONSOR_FEE_LAMPORTS = 15_000n;

export interface SponsorPolicy {
  /** The most one payment may cost the fee payer, in lamports. */
  readonly maxFeeLamports: bigint;
  /**
   * The mints whose transfers the fee payer sponsors for other servers (the facilitator API);
   * empty: any (our own routes check the mint against the request they issued).
   */
  readonly mints: ReadonlyArray<string>;
}

export const DEFAULT_SPONSOR_POLICY: SponsorPolicy = {
  maxFeeLamports: DEFAULT_MAX_SPONSOR_FEE_LAMPORTS,
  mints: [],
};

/** The most the fee payer pays for a transaction: the signatures' base fee and the priority fee, rounded up. */
export const sponsorFeeOf = (signatures: number, limit: bigint, microLamportsPerUnit: bigint): bigint =>
  BigInt(signatures) * LAMPORTS_PER_SIGNATURE + (limit * microLamportsPerUnit + 999_999n) / 1_000_000n;

/** The counted instructions under the policy: why the sponsor would refuse them, or undefined. */
export const refusalOfShape = (
  shape: Shape,
  instructions: number,
  policy: SponsorPolicy,
): PaymentRejectionReason | undefined => {
  const [limit] = shape.limits;
  if (limit === undefined || shape.limits.length > 1 || shape.prices.length > 1)
    return "exact-compute-budget-invalid";
  if (shape.transfers.length === 0) return "exact-transfer-mismatch";
  if (
    shape.transfers.length > 1 ||
    shape.memos.length + shape.assertions.length > MAX_OPTIONAL_INSTRUCTIONS ||
    instructions > MAX_INSTRUCTIONS
  )
    return "exact-instruction-forbidden";
  const price = shape.prices[0] ?? 0n;
  if (price > MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS) return "exact-compute-price-too-high";
  if (sponsorFeeOf(REQUIRED_SIGNERS, limit, price) > policy.maxFeeLamports)
    return "exact-compute-price-too-high";
  return undefined;
};

/**
 * Lighthouse assertions may check only the payer's own wallet and the token account it pays
 * from. An assertion on anything else (a clock sysvar, another account's data) could hold in our
 * simulation and fail when the transaction lands, the fee payer paying for it, at no cost to the
 * payer; on its own accounts the payer must spend a transaction of its own to make one fail,
 * and its settlements are then cooled down.
 */
export const refusalOfAssertions = (
  shape: Shape,
  transfer: { readonly authority: string; readonly source: string },
): PaymentRejectionReason | undefined =>
  shape.assertions.every(
    (accounts) =>
      accounts.length > 0 &&
      accounts.every((account) => account === transfer.authority || account === transfer.source),
  )
    ? undefined
    : "exact-assertion-forbidden";
