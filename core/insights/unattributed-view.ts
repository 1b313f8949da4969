/**
 * Unattributed payments as the owner reads them (console, admin API, export): who to refund,
 * how much, which transaction, when, and why nobody was served it (core/payments/unattributed.ts).
 */
import * as Schema from "effect/Schema";
import { formatUnits } from "../payments/money.ts";
import { UNATTRIBUTED_REASONS, type UnattributedPayment } from "../payments/unattributed.ts";

export const UnattributedPaymentView = Schema.Struct({
  signature: Schema.String.annotate({ description: "the transaction signature" }),
  payer: Schema.String.annotate({
    description: "the transfer's authority (refund to it); empty when not one wallet",
  }),
  units: Schema.Int.annotate({ description: "USDC base units received (6 decimals)" }),
  usdc: Schema.String.annotate({ description: "the same as exact decimal text" }),
  at: Schema.Int.annotate({ description: "block time, epoch ms" }),
  reason: Schema.Literals(UNATTRIBUTED_REASONS).annotate({
    description: "memo-not-ours: no memo of ours; late-refused: late on a route that serves no late transfer",
  }),
  paymentId: Schema.String.annotate({ description: "the payment request it was made for; empty when none" }),
}).annotate({ identifier: "UnattributedPayment" });
export type UnattributedPaymentView = typeof UnattributedPaymentView.Type;

export const unattributedView = (entry: UnattributedPayment): UnattributedPaymentView => ({
  signature: entry.signature,
  payer: entry.payer,
  units: Number(entry.units),
  usdc: formatUnits(entry.units),
  at: entry.at,
  reason: entry.reason,
  paymentId: entry.paymentId,
});
