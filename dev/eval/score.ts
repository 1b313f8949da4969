/**
 * The evaluation's figures from the replies (pure): recall@1/@5 by file (the expected page is
 * the first source / among the first five), phrase rate (the expected phrase in the answer
 * text itself, not only in a source), decline rates, declines that were charged, latency.
 */
import { percentile } from "../bench/stats.ts";
import type { ChatReply } from "./ask.ts";
import type { EvalQuestion } from "./questions.ts";

export interface DevOutcome {
  readonly question: EvalQuestion;
  readonly reply: ChatReply;
}

export interface EvalFigures {
  readonly dev: number;
  readonly recallAt1: number;
  readonly recallAt5: number;
  readonly phraseRate: number;
  /** Answered (not declined) with the expected phrase in the answer text. */
  readonly answeredWithFact: number;
  readonly devDeclined: number;
  readonly outOfScope: number;
  /** NaN when no out-of-scope set was given. */
  readonly outOfScopeDeclined: number;
  /** Declined answers that used up a question (should be 0). */
  readonly declinesCharged: number;
  /** Replies other than 200. */
  readonly failures: number;
  readonly latency: { readonly p50: number; readonly p95: number; readonly p99: number };
}

const share = (count: number, of: number): number => (of === 0 ? Number.NaN : count / of);

/** Whether the expected page is among the first `k` sources. */
export const foundIn = (outcome: DevOutcome, k: number): boolean =>
  outcome.reply.sources.slice(0, k).includes(outcome.question.file);

/** Whether the answer text itself contains the expected phrase. */
export const phraseAnswered = (outcome: DevOutcome): boolean =>
  outcome.reply.answer.includes(outcome.question.phrase);

/** A declined reply is charged when the client has fewer questions left than it started with. */
const charged = (reply: ChatReply, free: number): boolean =>
  reply.remaining !== undefined && reply.remaining < free;

export const figures = (
  dev: ReadonlyArray<DevOutcome>,
  outOfScope: ReadonlyArray<ChatReply>,
  freeQuestions: number,
): EvalFigures => {
  const replies = [...dev.map((outcome) => outcome.reply), ...outOfScope];
  const count = (test: (outcome: DevOutcome) => boolean) => dev.filter(test).length;
  const latencies = replies.map((reply) => reply.latencyMs);
  return {
    dev: dev.length,
    recallAt1: share(
      count((o) => foundIn(o, 1)),
      dev.length,
    ),
    recallAt5: share(
      count((o) => foundIn(o, 5)),
      dev.length,
    ),
    phraseRate: share(count(phraseAnswered), dev.length),
    answeredWithFact: share(
      count((o) => !o.reply.declined && phraseAnswered(o)),
      dev.length,
    ),
    devDeclined: share(
      count((o) => o.reply.declined),
      dev.length,
    ),
    outOfScope: outOfScope.length,
    outOfScopeDeclined: share(outOfScope.filter((reply) => reply.declined).length, outOfScope.length),
    declinesCharged: replies.filter((reply) => reply.declined && charged(reply, freeQuestions)).length,
    failures: replies.filter((reply) => reply.status !== 200).length,
    latency: {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
    },
  };
};
