/**
 * What the insights keep: one bounded event per answered question, per vote and per accepted
 * payment. Identity is only ever a keyed hash (`visitor`), question text is redacted and cut,
 * and every field has a limit, so one event is a few kilobytes at most whatever a visitor sends.
 * Stores encode events with this schema and decode them with it again (a member they cannot
 * read is skipped, never guessed).
 */
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";

/** Stored question text: at most this many UTF-16 units (after redaction). */
export const MAX_QUESTION_CHARS = 300;
/** Titles, links and page keys of a cited source; vote comments. */
export const MAX_FIELD_CHARS = 300;
/** Sources kept per question (the answer's top passages). */
export const MAX_SOURCES = 5;
/** Latencies above this are kept as this (an answer has a 90 s deadline anyway). */
export const MAX_LATENCY_MS = 600_000;
/** A signed receipt (JWS compact: header, payload of about 250 bytes, signature) fits easily. */
export const MAX_RECEIPT_CHARS = 2048;

/** How a payment reached us: the spec's signature claim, one of the HTTP 402 dialects, or x402 over MCP. */
export const PAYMENT_DIALECTS = ["signature", "x402", "x402-v2", "x402-mcp"] as const;

/** Where a question came from: the chat (widget or HTTP API) or the MCP endpoint (coding agents). */
export const CHANNELS = ["chat", "mcp"] as const;
export type Channel = (typeof CHANNELS)[number];
export type PaymentDialect = (typeof PAYMENT_DIALECTS)[number];

/** Whether the answer spent a free or a paid query, or nothing (declined, nothing found). */
export const BILLINGS = ["free", "paid", "uncharged"] as const;
export type Billing = (typeof BILLINGS)[number];

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max));
const Count = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));
/** Epoch milliseconds. */
const Instant = Count;

export const EventSource = Schema.Struct({
  /** The passage (chunk id): questions with the same top passages are grouped. */
  passage: Text(MAX_FIELD_CHARS),
  title: Text(MAX_FIELD_CHARS),
  /** The passage's link (with its anchor), or "" when the docs were indexed without a base URL. */
  url: Text(MAX_FIELD_CHARS),
  /** The page it belongs to: the link without its anchor, else the source file. */
  page: Text(MAX_FIELD_CHARS),
  /** Whether the answer text cites it as [n]. */
  cited: Schema.Boolean,
});
export type EventSource = typeof EventSource.Type;

export const QuestionEvent = Schema.TaggedStruct("question", {
  at: Instant,
  visitor: Text(64),
  question: Text(MAX_QUESTION_CHARS),
  declined: Schema.Boolean,
  billing: Schema.Literals(BILLINGS),
  conversation: Schema.NullOr(Text(128)),
  answerId: Schema.NullOr(Text(64)),
  latencyMs: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_LATENCY_MS })),
  sources: Schema.Array(EventSource).check(Schema.isMaxLength(MAX_SOURCES)),
  /** Absent in events recorded before channels were kept: those are the chat's. */
  channel: Schema.optionalKey(Schema.Literals(CHANNELS)),
  /**
   * Declined because it was asked in this language (ISO 639-1), not the docs', and nothing could
   * translate it: not a docs gap. Absent for every other question.
   */
  otherLanguage: Schema.optionalKey(Text(8)),
});
export type QuestionEvent = typeof QuestionEvent.Type;

export const VoteEvent = Schema.TaggedStruct("vote", {
  at: Instant,
  answerId: Text(64),
  vote: Schema.Literals(["up", "down"]),
  comment: Schema.NullOr(Text(MAX_FIELD_CHARS)),
});
export type VoteEvent = typeof VoteEvent.Type;

export const PaymentEvent = Schema.TaggedStruct("payment", {
  at: Instant,
  visitor: Text(64),
  /** USDC base units the service wallet received (6 decimals). */
  units: Count,
  queries: Count,
  dialect: Schema.Literals(PAYMENT_DIALECTS),
  /** The x402 offer-receipt JWS the payer was given (x402 v2 and MCP, when a key signs). */
  receipt: Schema.optionalKey(Text(MAX_RECEIPT_CHARS)),
});
export type PaymentEvent = typeof PaymentEvent.Type;

export const InsightEvent = Schema.Union([QuestionEvent, VoteEvent, PaymentEvent]);
export type InsightEvent = typeof InsightEvent.Type;

const EventJson = Schema.fromJsonString(InsightEvent);
/** The text a store keeps for an event. */
export const encodeEvent = Schema.encodeSync(EventJson);
const readEvent = Schema.decodeUnknownOption(EventJson);
/** An event read back from a store; undefined for text this schema did not write. */
export const decodeEvent = (text: string): InsightEvent | undefined => Option.getOrUndefined(readEvent(text));
