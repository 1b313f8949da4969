/**
 * Revenue of a range: per day, per dialect, paying clients, queries bought against used, and
 * the latest signed receipts issued (newest first, at most MAX_LISTED_RECEIPTS).
 */
import { formatUnits } from "../payments/money.ts";
import { utcDay } from "../time.ts";
import { type DayRange, daysOf, formatDay } from "./day-range.ts";
import { PAYMENT_DIALECTS, type PaymentEvent, type QuestionEvent } from "./events.ts";
import type { InsightsReport } from "./report.ts";

type Revenue = InsightsReport["revenue"];

/** Receipts listed with the revenue; the store keeps every payment event of the range. */
export const MAX_LISTED_RECEIPTS = 50;

const receiptsOf = (payments: ReadonlyArray<PaymentEvent>) =>
  payments
    .filter((payment) => payment.receipt !== undefined)
    .toSorted((a, b) => b.at - a.at)
    .slice(0, MAX_LISTED_RECEIPTS)
    .map((payment) => ({
      at: payment.at,
      dialect: payment.dialect,
      ...amount([payment]),
      receipt: payment.receipt ?? "",
    }));

/** Units summed exactly (bigint), reported as a JSON integer and as decimal USDC text. */
const amount = (payments: ReadonlyArray<PaymentEvent>) => {
  const units = payments.reduce((sum, payment) => sum + BigInt(payment.units), 0n);
  return { units: Number(units), usdc: formatUnits(units) };
};

const distinctVisitors = (payments: ReadonlyArray<PaymentEvent>) =>
  new Set(payments.map((payment) => payment.visitor)).size;

export const revenueOf = (
  payments: ReadonlyArray<PaymentEvent>,
  questions: ReadonlyArray<QuestionEvent>,
  range: DayRange,
): Revenue => {
  const byDay = new Map<number, PaymentEvent[]>();
  for (const payment of payments) {
    const day = utcDay(payment.at);
    byDay.set(day, [...(byDay.get(day) ?? []), payment]);
  }
  return {
    ...amount(payments),
    payments: payments.length,
    payingClients: distinctVisitors(payments),
    queriesBought: payments.reduce((sum, payment) => sum + payment.queries, 0),
    queriesUsed: questions.filter((question) => question.billing === "paid").length,
    perDay: daysOf(range).map((day) => {
      const ofDay = byDay.get(day) ?? [];
      return {
        day: formatDay(day),
        ...amount(ofDay),
        payments: ofDay.length,
        payingClients: distinctVisitors(ofDay),
      };
    }),
    byDialect: PAYMENT_DIALECTS.map((dialect) => {
      const ofDialect = payments.filter((payment) => payment.dialect === dialect);
      return { dialect, payments: ofDialect.length, ...amount(ofDialect) };
    }),
    receipts: receiptsOf(payments),
  };
};
