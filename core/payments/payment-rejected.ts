/**
 * Every way a payment can be refused: one error, a `reason` and the facts behind it. Core states
 * what happened; the edge (src/payments/payment-rejections.ts) renders texts, HTTP statuses and
 * protocol codes from the reason, in one exhaustive map, so both payment dialects explain a
 * refusal the same way.
 */
import * as Schema from "effect/Schema";

/** The reasons POST /api/payment can give (and, but for the first five, the HTTP 402 protocol too). */
export const CLAIM_REJECTION_REASONS = [
  // The claim itself, before any chain call.
  "amount-not-decimal",
  "amount-out-of-range",
  "amount-not-a-step",
  "signature-malformed",
  "token-not-usdc",
  // The transaction on chain.
  "transaction-not-found",
  "transaction-not-confirmed",
  "transaction-failed",
  "transaction-too-old",
  "transaction-before-ledger-start",
  "sent-sol",
  "sent-other-token",
  "mint-not-6-decimals",
  "balances-inconsistent",
  "paid-other-owner",
  "nothing-received",
  "amount-insufficient",
  "memo-mismatch",
  "memo-other-site",
  "memo-required",
  "memo-reserved",
  // The ledger.
  "signature-already-used",
  // The budget of chain lookups (core/payments/chain-lookup-budget.ts), before any chain call.
  "chain-lookups-limited",
] as const;

/** The reasons only the HTTP 402 protocol gives: its authorization header and its payment_id. */
export const X402_REJECTION_REASONS = [
  "authorization-malformed",
  "authorization-signature-invalid",
  "authorization-mismatch",
  "transfer-authority-mismatch",
  "payment-unknown",
  "payment-expired",
  "payment-other-resource",
  "payment-already-used",
  "payment-lookups-exhausted",
  // A late transfer on a route that opted out of serving it: listed for a refund by hand.
  "payment-late-listed",
] as const;

/** The reasons only the x402 v2 "exact" scheme gives: the client's partially signed transaction. */
export const EXACT_REJECTION_REASONS = [
  "exact-payload-malformed",
  "exact-instruction-forbidden",
  "exact-transfer-mismatch",
  "exact-fee-payer-misused",
  "exact-compute-price-too-high",
  "exact-compute-budget-invalid",
  "exact-signers-invalid",
  "exact-account-unreferenced",
  "exact-smart-wallet-unsupported",
  "exact-assertion-forbidden",
  "exact-payer-busy",
  "exact-sponsor-unavailable",
  "exact-blockhash-expired",
  "exact-signature-invalid",
  "exact-simulation-failed",
  "exact-settlement-failed",
  "exact-payment-in-progress",
  "exact-settlement-pending",
  "exact-payer-cooled-down",
  "exact-handler-deadline",
] as const;

export const PaymentRejectionReason = Schema.Literals([
  ...CLAIM_REJECTION_REASONS,
  ...X402_REJECTION_REASONS,
  ...EXACT_REJECTION_REASONS,
]);
export type PaymentRejectionReason = typeof PaymentRejectionReason.Type;

export class PaymentRejected extends Schema.TaggedError<PaymentRejected>()("PaymentRejected", {
  reason: PaymentRejectionReason,
  /** Base units the client claimed to pay, once known. */
  claimed: Schema.optional(Schema.BigInt),
  /** Base units the service wallet received in the transaction, once counted. */
  received: Schema.optional(Schema.BigInt),
  /** How long until the same request may be admitted (a budget's refusal). */
  retryAfterMs: Schema.optional(Schema.Number),
  /** The site of this service whose payment reference the transfer's memo carries (memo-other-site). */
  site: Schema.optional(Schema.String),
  /** The payment refused and listed for refund: its payment_id and transaction signature. */
  payment: Schema.optional(Schema.Struct({ id: Schema.String, transaction: Schema.String })),
}) {}

/** A rejection with its facts. */
export const rejected = (
  reason: PaymentRejectionReason,
  facts: {
    readonly claimed?: bigint;
    readonly received?: bigint;
    readonly retryAfterMs?: number;
    readonly site?: string;
    readonly payment?: { readonly id: string; readonly transaction: string };
  } = {},
) => new PaymentRejected({ reason, ...facts });
