/**
 * The name tests check a failure by: an error's `_tag`, or for a payment rejection the kind its
 * public code names ("SIGNATURE_ALREADY_USED" -> "SignatureAlreadyUsed"), so tests assert what
 * clients see. `renderedTexts` gives the texts a client would read for it.
 */
import type { PaymentRejected } from "../../core/payments/payment-rejected.ts";
import { REJECTIONS, renderRejection } from "../../src/payments/payment-rejections.ts";
import { USDC_MINT, WALLET } from "./test-addresses.ts";

const pascal = (code: string) =>
  code
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

export const kindOf = (error: { readonly _tag: string }): string =>
  error._tag === "PaymentRejected" ? pascal(REJECTIONS[(error as PaymentRejected).reason].code) : error._tag;

/** The error and details texts of a rejection, for payments to WALLET in USDC_MINT on devnet. */
export const renderedTexts = (error: PaymentRejected) =>
  renderRejection(error, {
    network: "devnet",
    usdcMint: USDC_MINT,
    wallet: WALLET,
    unitsPerQuery: 1_000n,
    memoPrefix: "docs-chat:",
    memoRequired: false,
    paidDailyCap: 1000,
  }).body;
