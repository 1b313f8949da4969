/**
 * Payment refusals in the HTTP 402 protocol's words: the error object {Message, Code, Details}
 * with one of its six codes and that code's status. The code of each rejection reason is one
 * exhaustive map, and the texts are those of src/payments/payment-rejections.ts, so both ways of
 * paying explain a refusal alike. INSUFFICIENT_FUNDS and TRANSACTION_BROADCAST_FAILED are the
 * client's (src/payments/client): the server neither holds the payer's balance nor broadcasts.
 */
import { formatUnits } from "../../../core/payments/money.ts";
import type { PaymentRejected, PaymentRejectionReason } from "../../../core/payments/payment-rejected.ts";
import { type X402Code, x402Error } from "../../../core/payments/x402.ts";
import type { ChainUnavailable } from "../../../core/ports/chain-reader.ts";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { UNAVAILABLE } from "../../hono-kit/unavailable.ts";
import { REJECTIONS } from "../payment-rejections.ts";

const INVALID = "INVALID_PAYMENT_REQUEST";
const FAILED = "PAYMENT_VERIFICATION_FAILED";

export const X402_CODE_OF = {
  "amount-not-decimal": INVALID,
  "amount-out-of-range": INVALID,
  "amount-not-a-step": INVALID,
  "signature-malformed": INVALID,
  "token-not-usdc": INVALID,
  "authorization-malformed": INVALID,
  "transaction-not-found": FAILED,
  "transaction-not-confirmed": FAILED,
  "transaction-failed": FAILED,
  "transaction-too-old": FAILED,
  "transaction-before-ledger-start": FAILED,
  "sent-sol": FAILED,
  "sent-other-token": FAILED,
  "mint-not-6-decimals": FAILED,
  "balances-inconsistent": FAILED,
  "paid-other-owner": FAILED,
  "nothing-received": FAILED,
  "amount-insufficient": FAILED,
  "memo-mismatch": FAILED,
  "memo-other-site": FAILED,
  "memo-required": FAILED,
  "memo-reserved": FAILED,
  "signature-already-used": FAILED,
  "chain-lookups-limited": FAILED,
  "payment-lookups-exhausted": FAILED,
  "authorization-signature-invalid": FAILED,
  "authorization-mismatch": FAILED,
  "transfer-authority-mismatch": FAILED,
  "payment-unknown": FAILED,
  "payment-other-resource": FAILED,
  "payment-already-used": FAILED,
  "payment-expired": "PAYMENT_EXPIRED",
  "payment-late-listed": "PAYMENT_EXPIRED",
  "exact-payload-malformed": INVALID,
  "exact-instruction-forbidden": FAILED,
  "exact-transfer-mismatch": FAILED,
  "exact-fee-payer-misused": FAILED,
  "exact-compute-price-too-high": FAILED,
  "exact-compute-budget-invalid": FAILED,
  "exact-signers-invalid": FAILED,
  "exact-account-unreferenced": FAILED,
  "exact-smart-wallet-unsupported": FAILED,
  "exact-assertion-forbidden": FAILED,
  "exact-payer-busy": FAILED,
  "exact-sponsor-unavailable": FAILED,
  "exact-blockhash-expired": FAILED,
  "exact-signature-invalid": FAILED,
  "exact-simulation-failed": FAILED,
  "exact-settlement-failed": FAILED,
  "exact-payment-in-progress": FAILED,
  "exact-settlement-pending": FAILED,
  "exact-payer-cooled-down": FAILED,
  "exact-handler-deadline": FAILED,
} as const satisfies Record<PaymentRejectionReason, X402Code>;

/** Where the protocol's rules differ from POST /api/payment's (exact price, the x402 memo). */
const X402_TEXTS: Partial<
  Record<PaymentRejectionReason, { readonly message?: (r: PaymentRejected) => string; readonly hint: string }>
> = {
  "amount-insufficient": {
    message: ({ claimed, received }) =>
      `Amount received (${formatUnits(received ?? 0n)} USDC) is lower than the price (${formatUnits(claimed ?? 0n)} USDC)`,
    hint: "Transfer at least max_amount_required, to the unit.",
  },
  "memo-required": {
    message: () => "Payment memo required",
    hint: 'Add the memo "x402:<payment_id>" to the transfer.',
  },
  "memo-mismatch": {
    message: () => "The transfer's memo names another payment",
    hint: 'The memo must be "x402:<payment_id>" of this payment request.',
  },
  "signature-already-used": {
    hint: "This transaction already paid once. Send a new transfer for a new payment request.",
  },
};

/** A refusal as the protocol's error response. */
export const x402Rejection = (rejection: PaymentRejected) => {
  const { reason, claimed, received, payment } = rejection;
  const rendering = REJECTIONS[reason];
  const texts = X402_TEXTS[reason];
  return x402Error(X402_CODE_OF[reason], texts?.message?.(rejection) ?? rendering.error(rejection), {
    reason,
    code: rendering.code,
    hint: texts?.hint ?? rendering.hint,
    retryable: rendering.retryable,
    ...(claimed === undefined ? {} : { required: formatUnits(claimed) }),
    ...(received === undefined ? {} : { received: formatUnits(received) }),
    // A refusal of money that moved names it, so the payer can ask the owner for it.
    ...(payment === undefined
      ? {}
      : { payment_id: payment.id, transaction_hash: payment.transaction, listed_for_refund: true }),
  });
};

/**
 * The verification could not run (store or chain RPC down): 503 and Retry-After, not 403, since
 * it is not the payment's fault; nothing was consumed, so the same header can be sent again.
 */
export const x402Unavailable = (error: StoreUnavailable | ChainUnavailable) => ({
  status: 503 as const,
  body: x402Error(FAILED, UNAVAILABLE[error._tag], { reason: error._tag, retryable: true }).body,
});
