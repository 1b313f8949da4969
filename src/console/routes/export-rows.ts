/**
 * GET /api/admin/export as CSV: one row per event (question, vote or payment), then one per
 * unattributed payment (type "unattributed", for a refund by hand), with the same columns for all, written by csv-stringify with formula escaping (a visitor's question that
 * starts with "=" must not run in the owner's spreadsheet).
 */
import { stringify } from "csv-stringify/sync";
import type { InsightEvent } from "../../../core/insights/events.ts";
import type { UnattributedPaymentView } from "../../../core/insights/unattributed-view.ts";
import { formatUnits } from "../../../core/payments/money.ts";

export const EXPORT_COLUMNS = [
  "type",
  "time",
  "visitor",
  "question",
  "declined",
  "billing",
  "conversation",
  "answer_id",
  "latency_ms",
  "sources",
  "cited",
  "vote",
  "comment",
  "units",
  "usdc",
  "queries",
  "dialect",
  "payer",
  "signature",
  "reason",
  "payment_id",
  "receipt",
] as const;

type Row = Partial<Record<(typeof EXPORT_COLUMNS)[number], string | number | boolean>>;

const rowOf = (event: InsightEvent): Row => {
  const time = new Date(event.at).toISOString();
  switch (event._tag) {
    case "question":
      return {
        type: "question",
        time,
        visitor: event.visitor,
        question: event.question,
        declined: event.declined,
        billing: event.billing,
        conversation: event.conversation ?? "",
        answer_id: event.answerId ?? "",
        latency_ms: event.latencyMs,
        sources: event.sources.map((source) => source.url || source.page).join(" "),
        cited: event.sources.map((source) => (source.cited ? "1" : "0")).join(" "),
      };
    case "vote":
      return {
        type: "vote",
        time,
        answer_id: event.answerId,
        vote: event.vote,
        comment: event.comment ?? "",
      };
    case "payment":
      return {
        type: "payment",
        time,
        visitor: event.visitor,
        units: event.units,
        usdc: formatUnits(BigInt(event.units)),
        queries: event.queries,
        dialect: event.dialect,
        receipt: event.receipt ?? "",
      };
    default:
      return event satisfies never;
  }
};

const unattributedRow = (payment: UnattributedPaymentView): Row => ({
  type: "unattributed",
  time: new Date(payment.at).toISOString(),
  units: payment.units,
  usdc: payment.usdc,
  payer: payment.payer,
  signature: payment.signature,
  reason: payment.reason,
  payment_id: payment.paymentId,
});

export const exportCsv = (
  events: ReadonlyArray<InsightEvent>,
  unattributed: ReadonlyArray<UnattributedPaymentView> = [],
): string =>
  stringify([...events.map(rowOf), ...unattributed.map(unattributedRow)], {
    header: true,
    columns: [...EXPORT_COLUMNS],
    escape_formulas: true,
    cast: { boolean: (value) => (value ? "true" : "false") },
  });
