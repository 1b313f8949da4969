/**
 * The insights report (GET /api/admin/insights) as a Schema: the summary is typed by it, the
 * OpenAPI document is generated from it and the HTTP tests decode real reports with it.
 */
import * as Schema from "effect/Schema";
import { CHANNELS, PAYMENT_DIALECTS } from "./events.ts";

const Count = Schema.Int.annotate({ description: "a count" });
const Day = Schema.String.annotate({ description: "UTC date, YYYY-MM-DD" });
const Usdc = Schema.String.annotate({ description: "USDC as exact decimal text, e.g. 0.06" });
const Units = Schema.Int.annotate({ description: "USDC base units (6 decimals)" });

export const PageLink = Schema.Struct({
  title: Schema.String,
  url: Schema.String.annotate({ description: "link to the passage; empty when indexed without a base URL" }),
  page: Schema.String.annotate({
    description: "the page: the link without its anchor, else the source file",
  }),
}).annotate({ identifier: "InsightsPageLink" });

export const QuestionGroup = Schema.Struct({
  question: Schema.String.annotate({ description: "the most asked wording of the group" }),
  count: Count,
  declined: Count,
  variants: Schema.Array(Schema.Struct({ question: Schema.String, count: Count })),
  sources: Schema.Array(PageLink).annotate({ description: "the pages most often retrieved for it" }),
  lastAskedAt: Schema.Int.annotate({ description: "epoch ms" }),
}).annotate({ identifier: "InsightsQuestionGroup" });

export const DownVotedAnswer = Schema.Struct({
  question: Schema.String,
  answerId: Schema.String,
  askedAt: Schema.Int,
  votedAt: Schema.Int,
  comment: Schema.NullOr(Schema.String),
  sources: Schema.Array(PageLink),
}).annotate({ identifier: "InsightsDownVotedAnswer" });

export const CitedPage = Schema.Struct({
  ...PageLink.fields,
  citations: Count,
}).annotate({ identifier: "InsightsCitedPage" });

export const InsightsReport = Schema.Struct({
  from: Day,
  to: Day,
  totals: Schema.Struct({
    questions: Count,
    answered: Count.annotate({ description: "questions answered from the docs (not declined)" }),
    declined: Count,
    free: Count,
    paid: Count,
    votesUp: Count,
    votesDown: Count,
    conversations: Count,
    latencyP50Ms: Count,
    latencyP95Ms: Count,
  }),
  questionsPerDay: Schema.Array(Schema.Struct({ day: Day, questions: Count, declined: Count })),
  questionsByChannel: Schema.Array(
    Schema.Struct({ channel: Schema.Literals(CHANNELS), questions: Count }),
  ).annotate({ description: "where questions came from: the chat (widget, HTTP API) or the MCP endpoint" }),
  topQuestions: Schema.Array(QuestionGroup),
  gaps: Schema.Array(QuestionGroup).annotate({
    description: "declined questions: what the docs do not answer",
  }),
  downVoted: Schema.Array(DownVotedAnswer),
  mostCitedPages: Schema.Array(CitedPage),
  leastCitedPages: Schema.Array(CitedPage),
  revenue: Schema.Struct({
    units: Units,
    usdc: Usdc,
    payments: Count,
    payingClients: Count.annotate({
      description: "distinct payers; visitor hashes change every UTC day, so one payer counts once per day",
    }),
    queriesBought: Count,
    queriesUsed: Count.annotate({ description: "answers charged to paid credits" }),
    perDay: Schema.Array(
      Schema.Struct({ day: Day, units: Units, usdc: Usdc, payments: Count, payingClients: Count }),
    ),
    byDialect: Schema.Array(
      Schema.Struct({
        dialect: Schema.Literals(PAYMENT_DIALECTS),
        payments: Count,
        units: Units,
        usdc: Usdc,
      }),
    ),
    receipts: Schema.Array(
      Schema.Struct({
        at: Schema.Int.annotate({ description: "epoch ms of the payment" }),
        dialect: Schema.Literals(PAYMENT_DIALECTS),
        units: Units,
        usdc: Usdc,
        receipt: Schema.String.annotate({
          description: "the x402 offer-receipt JWS the payer was given (verify with its kid, docs/x402.md)",
        }),
      }),
    ).annotate({ description: "the latest signed receipts issued in the range, newest first (at most 50)" }),
  }),
}).annotate({ identifier: "InsightsReport" });
export type InsightsReport = typeof InsightsReport.Type;
export type QuestionGroup = typeof QuestionGroup.Type;
export type PageLink = typeof PageLink.Type;
export type CitedPage = typeof CitedPage.Type;
