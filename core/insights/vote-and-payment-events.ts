/** The events of a vote on an answer and of an accepted payment. */
import type { Feedback } from "../answers/feedback.ts";
import {
  MAX_FIELD_CHARS,
  MAX_RECEIPT_CHARS,
  type PaymentDialect,
  type PaymentEvent,
  type VoteEvent,
} from "./events.ts";
import type { Recording } from "./question-event.ts";
import { storedText } from "./text.ts";

/** A vote; its comment is redacted like a question. Joined to its question by answer id. */
export const voteEvent = (feedback: Feedback, redaction: RegExp): VoteEvent => ({
  _tag: "vote",
  at: feedback.at,
  answerId: feedback.answerId,
  vote: feedback.vote,
  comment: feedback.comment === undefined ? null : storedText(feedback.comment, redaction, MAX_FIELD_CHARS),
});

export interface AcceptedPayment {
  readonly identity: string;
  /** Base units the service wallet received. */
  readonly units: bigint;
  readonly queries: number;
  readonly dialect: PaymentDialect;
  /** The signed receipt the payer was given (JWS compact), if any. */
  readonly receipt?: string | undefined;
}

export const paymentEvent = (
  payment: AcceptedPayment,
  recording: Omit<Recording, "redaction">,
): PaymentEvent => ({
  _tag: "payment",
  at: recording.at,
  visitor: recording.visitor,
  units: Number(payment.units),
  queries: payment.queries,
  dialect: payment.dialect,
  // Longer than any receipt this service signs: not kept rather than cut (a cut JWS verifies nothing).
  ...(payment.receipt === undefined || payment.receipt.length > MAX_RECEIPT_CHARS
    ? {}
    : { receipt: payment.receipt }),
});
