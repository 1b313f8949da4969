/**
 * Every way a payment can be refused: one error, a `reason` and the facts behind it. Core states
 * what happened; the edge (src/http/payment-rejections.ts) renders texts, HTTP statuses and
 * protocol codes from the reason, in one exhaustive map, so both payment dialects explain a
 * refusal the same way. The x402 reasons at the end only arise on routes paid through the
 * X-Payment-Authorization header (src/x402/).
 */
import { Schema } from "effect";

export const PaymentRejectionReason = Schema.Literals([
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
  "memo-required",
  // The ledger.
  "signature-already-used",
  // The HTTP 402 protocol's authorization (X-Payment-Authorization) and its payment_id.
  "authorization-malformed",
  "authorization-signature-invalid",
  "authorization-mismatch",
  "transfer-authority-mismatch",
  "payment-unknown",
  "payment-expired",
  "payment-other-resource",
  "payment-already-used",
]);
export type PaymentRejectionReason = typeof PaymentRejectionReason.Type;

export class PaymentRejected extends Schema.TaggedError<PaymentRejected>()("PaymentRejected", {
  reason: PaymentRejectionReason,
  /** Base units the client claimed to pay, once known. */
  claimed: Schema.optional(Schema.BigInt),
  /** Base units the service wallet received in the transaction, once counted. */
  received: Schema.optional(Schema.BigInt),
}) {}

/** A rejection with its facts. */
export const rejected = (
  reason: PaymentRejectionReason,
  facts: { readonly claimed?: bigint; readonly received?: bigint } = {},
) => new PaymentRejected({ reason, ...facts });
