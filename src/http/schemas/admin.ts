/**
 * The admin API's query and responses as Schemas: the routes decode the query with them, the
 * OpenAPI document is generated from them, and the HTTP tests decode real responses with them.
 */
import * as Schema from "effect/Schema";
import { InsightEvent } from "../../../core/insights/events.ts";
import { InsightsReport } from "../../../core/insights/report.ts";
import { UnattributedPaymentView } from "../../../core/insights/unattributed-view.ts";
import { DocsSyncRecord } from "../../../core/ports/docs-sync.ts";

const Day = Schema.String.annotate({ description: "UTC date, YYYY-MM-DD (included)" });

export const InsightsQuery = Schema.Struct({
  from: Schema.optionalKey(Day.annotate({ description: "first day (default: 29 days before `to`)" })),
  to: Schema.optionalKey(Day.annotate({ description: "last day (default: today, UTC)" })),
});

export const ExportQuery = Schema.Struct({
  ...InsightsQuery.fields,
  format: Schema.optionalKey(Schema.Literals(["csv", "json"]).annotate({ description: "default csv" })),
});

export const InsightsResponse = Schema.Struct({
  success: Schema.Literal(true),
  ...InsightsReport.fields,
  /** Transfers verified but served to nobody, in the range (by block time): refund them by hand. */
  unattributed: Schema.Array(UnattributedPaymentView),
  /** The last sync of DOCS_URL; null when none is configured or none ran yet. */
  docsSync: Schema.NullOr(DocsSyncRecord),
}).annotate({ identifier: "InsightsResponse" });

export const ExportResponse = Schema.Struct({
  success: Schema.Literal(true),
  from: Day,
  to: Day,
  events: Schema.Array(InsightEvent),
  unattributed: Schema.Array(UnattributedPaymentView),
}).annotate({ identifier: "InsightsExport" });
