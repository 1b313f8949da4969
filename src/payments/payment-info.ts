/** The body of GET /api/payment/info (also the `payment` of a chat 402): how to pay, for one caller. */
import type { PaymentTerms } from "../../core/payments/payment-settings.ts";

export const WIDGET_AMOUNTS = [0.01, 0.05, 0.1, 0.5, 1] as const;

/** Terms and steps for the caller whose memo reference is `reference`. */
export const paymentInfo = (terms: PaymentTerms, reference: string) => {
  const memo = `${terms.memoPrefix}${reference}`;
  return {
    amount: WIDGET_AMOUNTS[0],
    token: "USDC",
    network: terms.network,
    recipient: terms.wallet,
    usdcMint: terms.usdcMint,
    instructions: [
      "Choose an amount from 0.01 to 1.00 USDC: each 0.001 USDC buys one query (0.01 = 10 queries, 1.00 = 1000 queries).",
      `Send that amount of USDC (token mint ${terms.usdcMint}) on Solana ${terms.network} to the wallet ${terms.wallet}. Send USDC, not SOL.`,
      `Add the memo "${memo}" to the transfer: it binds the payment to you so nobody else can claim it${terms.memoRequired ? " (required by this service)" : ""}.`,
      "Wait until the transfer is confirmed: usually a few seconds, sometimes 30-60 seconds.",
      'Submit it: POST /api/payment with {"signature": "<transaction signature>", "amount": <amount sent>, "token": "USDC"}. If the answer says the transaction is not confirmed yet, retry in 5 seconds.',
      `Paid queries never expire and are used after the daily free queries; at most ${terms.paidDailyCap} paid queries can be used per day.`,
    ],
    pricePerQuery: "0.001",
    amounts: WIDGET_AMOUNTS,
    memo,
    memoRequired: terms.memoRequired,
    paymentEndpoint: "/api/payment",
  };
};

/** Stands for the caller's reference in the template: its "0"s cannot occur in base58 (addresses, references). */
const REFERENCE_SLOT = "REFERENCE0SLOT0a8f3";

/**
 * `JSON.stringify(paymentInfo(terms, reference))` for any reference, from a template made once
 * per set of terms: the body differs between callers only by their reference, and building and
 * serialising the object per request was most of the route's cost.
 */
export const paymentInfoBody = (terms: PaymentTerms): ((reference: string) => string) => {
  const parts = JSON.stringify(paymentInfo(terms, REFERENCE_SLOT)).split(REFERENCE_SLOT);
  return (reference) => parts.join(reference);
};
