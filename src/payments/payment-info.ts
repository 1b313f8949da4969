/** The body of GET /api/payment/info (also the `payment` of a chat 402): how to pay, for one caller. */
import { formatUnits } from "../../core/payments/money.ts";
import type { PaymentTerms } from "../../core/payments/payment-settings.ts";
import { largestPurchase, queriesFor, smallestPurchase } from "../../core/payments/question-price.ts";

/** The widget's five choices at the default price, in base units (0.01, 0.05, 0.10, 0.50, 1.00 USDC). */
const WIDGET_UNITS = [10_000n, 50_000n, 100_000n, 500_000n, 1_000_000n] as const;

/**
 * The widget's choices at a price: each default choice raised to whole questions and kept within
 * the purchase bounds, so every one is a payment POST /api/payment accepts (the default price
 * keeps them as they are).
 */
export const widgetAmounts = (unitsPerQuery: bigint): ReadonlyArray<number> => {
  const smallest = smallestPurchase(unitsPerQuery);
  const largest = largestPurchase(unitsPerQuery);
  const amounts = WIDGET_UNITS.map((units) => {
    const whole = ((units + unitsPerQuery - 1n) / unitsPerQuery) * unitsPerQuery;
    return whole < smallest ? smallest : whole > largest ? largest : whole;
  });
  return [...new Set(amounts)].map((units) => Number(formatUnits(units)));
};

/**
 * What every caller of a site is told, the same until its terms change: computed once per site
 * and base path ("" on its own host names, `/sites/<id>` on the service's), not per request.
 */
export const siteTerms = (terms: PaymentTerms, basePath: string) => {
  const endpoint = `${basePath}/api/payment`;
  const price = terms.unitsPerQuery;
  const [smallest, largest] = [smallestPurchase(price), largestPurchase(price)];
  const amounts = widgetAmounts(price);
  return {
    terms,
    amount: amounts[0] ?? Number(formatUnits(smallest)),
    steps: [
      `Choose an amount from ${formatUnits(smallest)} to ${formatUnits(largest)} USDC: each ${formatUnits(price)} USDC buys one query (${formatUnits(smallest)} = ${queriesFor(smallest, price)} queries, ${formatUnits(largest)} = ${queriesFor(largest, price)} queries).`,
      `Send that amount of USDC (token mint ${terms.usdcMint}) on Solana ${terms.network} to the wallet ${terms.wallet}. Send USDC, not SOL.`,
      "Wait until the transfer is confirmed: usually a few seconds, sometimes 30-60 seconds.",
      `Submit it: POST ${endpoint} with {"signature": "<transaction signature>", "amount": <amount sent>, "token": "USDC"}. If the answer says the transaction is not confirmed yet, retry in 5 seconds.`,
      `Paid queries never expire and are used after the daily free queries; at most ${terms.paidDailyCap} paid queries can be used per day.`,
    ],
    pricePerQuery: formatUnits(price),
    amounts,
    endpoint,
  };
};

export type SiteTerms = ReturnType<typeof siteTerms>;

/** Terms and steps for the caller whose memo reference is `reference`. */
export const callerInfo = (site: SiteTerms, reference: string) => {
  const { terms, steps } = site;
  const memo = `${terms.memoPrefix}${reference}`;
  return {
    amount: site.amount,
    token: "USDC",
    network: terms.network,
    recipient: terms.wallet,
    usdcMint: terms.usdcMint,
    instructions: [
      steps[0],
      steps[1],
      `Add the memo "${memo}" to the transfer: it binds the payment to you so nobody else can claim it${terms.memoRequired ? " (required by this service)" : ""}.`,
      steps[2],
      steps[3],
      steps[4],
    ],
    pricePerQuery: site.pricePerQuery,
    amounts: site.amounts,
    memo,
    memoRequired: terms.memoRequired,
    paymentEndpoint: site.endpoint,
  };
};

/** The same, from the terms themselves (a 402's payment block). */
export const paymentInfo = (terms: PaymentTerms, reference: string, basePath: string) =>
  callerInfo(siteTerms(terms, basePath), reference);
