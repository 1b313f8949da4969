/**
 * The client's six error kinds, one per protocol code (x402 protocol reference, section 7).
 * Each is an Error (thrown by the promise API) with the spec's `code`.
 */
import * as Schema from "effect/Schema";
import { PaymentRequest, type X402Code } from "../../../core/payments/x402.ts";

/** The server asks for a payment the client will not make (above MaxPaymentAmount, or declined). */
export class PaymentRequiredError extends Schema.TaggedError<PaymentRequiredError>()("PaymentRequiredError", {
  message: Schema.String,
  request: PaymentRequest,
}) {
  readonly code: X402Code = "PAYMENT_REQUIRED";
}

/** The payment request expired, and renewing it did not give a live one. */
export class PaymentExpiredError extends Schema.TaggedError<PaymentExpiredError>()("PaymentExpiredError", {
  message: Schema.String,
  request: PaymentRequest,
}) {
  readonly code: X402Code = "PAYMENT_EXPIRED";
}

/** The wallet cannot pay: found before anything was sent. Amounts are decimal text. */
export class InsufficientFundsError extends Schema.TaggedError<InsufficientFundsError>()(
  "InsufficientFundsError",
  {
    message: Schema.String,
    asset: Schema.Literals(["token", "SOL"]),
    required: Schema.String,
    available: Schema.String,
  },
) {
  readonly code: X402Code = "INSUFFICIENT_FUNDS";
}

/** The server refused the payment proof; `details` is the server's error object Details. */
export class PaymentVerificationError extends Schema.TaggedError<PaymentVerificationError>()(
  "PaymentVerificationError",
  {
    message: Schema.String,
    status: Schema.Number,
    details: Schema.Record(Schema.String, Schema.Unknown),
  },
) {
  readonly code: X402Code = "PAYMENT_VERIFICATION_FAILED";
}

/** The transfer could not be sent or failed on chain. */
export class TransactionBroadcastError extends Schema.TaggedError<TransactionBroadcastError>()(
  "TransactionBroadcastError",
  {
    message: Schema.String,
    signature: Schema.optional(Schema.String),
  },
) {
  readonly code: X402Code = "TRANSACTION_BROADCAST_FAILED";
}

/** The payment request cannot be paid as given (malformed, wrong network, local endpoint...). */
export class InvalidPaymentRequestError extends Schema.TaggedError<InvalidPaymentRequestError>()(
  "InvalidPaymentRequestError",
  { message: Schema.String },
) {
  readonly code: X402Code = "INVALID_PAYMENT_REQUEST";
}

export type X402ClientError =
  | PaymentRequiredError
  | PaymentExpiredError
  | InsufficientFundsError
  | PaymentVerificationError
  | TransactionBroadcastError
  | InvalidPaymentRequestError;
