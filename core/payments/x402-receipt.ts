/**
 * The receipt a paid response carries (header X-Payment-Receipt): base64 of a JSON object
 * naming the transaction that paid, so a client can keep proof of what it bought.
 */
import * as Base64 from "effect/encoding/Base64";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { Network, PaymentAuthorization, PaymentRequest } from "./x402.ts";

export const RECEIPT_HEADER = "X-Payment-Receipt";
export const AUTHORIZATION_HEADER = "X-Payment-Authorization";

export const PaymentReceipt = Schema.Struct({
  payment_id: PaymentRequest.fields.payment_id,
  transaction_hash: PaymentAuthorization.fields.transaction_hash,
  network: Network,
  /** Decimal amount the recipient received. */
  amount: PaymentRequest.fields.max_amount_required,
  payer: PaymentAuthorization.fields.public_key,
  resource: Schema.String,
});
export type PaymentReceipt = typeof PaymentReceipt.Type;

const ReceiptJson = Schema.fromJsonString(PaymentReceipt);

export const encodeReceiptHeader = (receipt: PaymentReceipt): string =>
  Base64.encode(Schema.encodeSync(ReceiptJson)(receipt));

/** Header value -> receipt; undefined when it is not one. */
export const decodeReceiptHeader = (header: string): PaymentReceipt | undefined => {
  const text = Base64.decodeString(header.trim());
  return Result.isFailure(text)
    ? undefined
    : Result.getOrUndefined(Schema.decodeUnknownResult(ReceiptJson)(text.success));
};
