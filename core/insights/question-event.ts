/**
 * The event of one answered question, built from the chat use case's own outcome: the one place
 * that decides "declined" (an answer not written from passages: the relevance decision declined
 * it before the model, or the model's answer says the docs do not cover it).
 */
import { citedPassages } from "../answers/answer-sources.ts";
import type { Answer } from "../ports/generator.ts";
import type { RetrievedChunk } from "../ports/retrieval.ts";
import type { Declined, PreparedAnswer, Question } from "../use-cases/prepare-answer.ts";
import type { Channel } from "./events.ts";
import {
  type Billing,
  type EventSource,
  MAX_FIELD_CHARS,
  MAX_LATENCY_MS,
  MAX_QUESTION_CHARS,
  MAX_SOURCES,
  type QuestionEvent,
} from "./events.ts";
import { bounded, storedText } from "./text.ts";

/** What prepareAnswer ended with. */
export type AnswerOutcome = PreparedAnswer | Declined;

/** A question is declined when its answer was not written from retrieved passages. */
export const isDeclined = (outcome: AnswerOutcome, answer?: Answer): boolean =>
  outcome.kind !== "ready" || answer?.declined === true;

export interface AnswerRecord {
  readonly question: Question;
  readonly outcome: AnswerOutcome;
  /** The whole answer; undefined when a stream was cut after some text (charged, not finished). */
  readonly answer: Answer | undefined;
  readonly answerId: string | undefined;
  readonly latencyMs: number;
  /** Where it was asked (default the chat). */
  readonly channel?: Channel;
}

export interface Recording {
  readonly at: number;
  /** The visitor's keyed hash (never the identity itself). */
  readonly visitor: string;
  readonly redaction: RegExp;
}

/** A link too long to keep is dropped rather than cut (a cut link is a broken one). */
const link = (url: string) => (url.length <= MAX_FIELD_CHARS ? url : "");

export const eventSource = (chunk: RetrievedChunk, cited: boolean): EventSource => {
  const url = link(chunk.url);
  const page = url === "" ? chunk.source : url.replace(/#.*$/, "");
  return {
    passage: bounded(chunk.id, MAX_FIELD_CHARS),
    title: bounded(chunk.title, MAX_FIELD_CHARS),
    url,
    page: bounded(page, MAX_FIELD_CHARS),
    cited,
  };
};

/** A declined answer is given back (finish-answer.ts), so it bills nothing. */
const billingOf = (outcome: AnswerOutcome, answer: Answer | undefined): Billing =>
  outcome.kind === "ready" && answer?.declined !== true ? outcome.hold.bucket : "uncharged";

export const questionEvent = (input: AnswerRecord, recording: Recording): QuestionEvent => {
  const { outcome, answer } = input;
  const retrieved = outcome.kind === "ready" ? outcome.sources : [];
  // Which retrieved passages the answer cites, through the numbering of the sources it listed.
  const cited = answer === undefined ? new Set<number>() : citedPassages(answer, retrieved);
  const chunks = retrieved.slice(0, MAX_SOURCES);
  return {
    _tag: "question",
    at: recording.at,
    visitor: recording.visitor,
    question: storedText(input.question.message, recording.redaction, MAX_QUESTION_CHARS),
    declined: isDeclined(outcome, answer),
    billing: billingOf(outcome, answer),
    conversation: input.question.conversationId ?? null,
    answerId: input.answerId ?? null,
    latencyMs: Math.min(MAX_LATENCY_MS, Math.max(0, Math.round(input.latencyMs))),
    sources: chunks.map((chunk, i) => eventSource(chunk, cited.has(i))),
    channel: input.channel ?? "chat",
    ...(outcome.kind === "declined" && outcome.reason !== "uncovered"
      ? { otherLanguage: outcome.reason.language }
      : {}),
  };
};
