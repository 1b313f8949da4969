/** What the edge knows about taking payments: the chain settings, error texts and the info body. */

import type { ChainNetwork } from "../../core/network.ts";
import { paymentErrors } from "../../core/payment-errors.ts";
import type { PaymentSettings } from "../../core/use-cases/buy-queries.ts";

/** Memos of ours look like `docschat:<reference>`; other memos on a transfer are ignored. */
export const MEMO_PREFIX = "docschat:";
export const WIDGET_AMOUNTS = [0.01, 0.05, 0.1, 0.5, 1] as const;

export interface PaymentDesk extends PaymentSettings {
  readonly network: ChainNetwork;
  /** Paid queries a client can spend per UTC day (PAID_DAILY_CAP), for the texts. */
  readonly paidDailyCap: number;
}

export interface DeskOptions {
  readonly memoRequired?: boolean;
  /** See PaymentSettings.notBefore (volatile ledger). */
  readonly notBefore?: number | undefined;
  readonly paidDailyCap?: number;
}

export const makePaymentDesk = (
  chain: { readonly network: ChainNetwork; readonly usdcMint: string; readonly wallet: string },
  { memoRequired = false, notBefore, paidDailyCap = 1000 }: DeskOptions = {},
): PaymentDesk => ({
  notBefore,
  paidDailyCap,
  network: chain.network,
  usdcMint: chain.usdcMint,
  wallet: chain.wallet,
  memoPrefix: MEMO_PREFIX,
  memoRequired,
  errors: paymentErrors({ usdcMint: chain.usdcMint, wallet: chain.wallet, network: chain.network }),
});

/** The body of GET /api/payment/info for one caller (the memo reference is theirs). */
export const paymentInfo = (desk: PaymentDesk, reference: string) => {
  const memo = `${desk.memoPrefix}${reference}`;
  return {
    amount: WIDGET_AMOUNTS[0],
    token: "USDC",
    network: desk.network,
    recipient: desk.wallet,
    usdcMint: desk.usdcMint,
    instructions: [
      "Choose an amount from 0.01 to 1.00 USDC: each 0.001 USDC buys one query (0.01 = 10 queries, 1.00 = 1000 queries).",
      `Send that amount of USDC (token mint ${desk.usdcMint}) on Solana ${desk.network} to the wallet ${desk.wallet}. Send USDC, not SOL.`,
      `Add the memo "${memo}" to the transfer: it binds the payment to you so nobody else can claim it${desk.memoRequired ? " (required by this service)" : ""}.`,
      "Wait until the transfer is confirmed: usually a few seconds, sometimes 30-60 seconds.",
      'Submit it: POST /api/payment with {"signature": "<transaction signature>", "amount": <amount sent>, "token": "USDC"}. If the answer says the transaction is not confirmed yet, retry in 5 seconds.',
      `Paid queries never expire and are used after the daily free queries; at most ${desk.paidDailyCap} paid queries can be used per day.`,
    ],
    pricePerQuery: "0.001",
    amounts: WIDGET_AMOUNTS,
    memo,
    memoRequired: desk.memoRequired,
    paymentEndpoint: "/api/payment",
  };
};
