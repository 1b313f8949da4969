/**
 * POST /api/chat answered in one piece (JSON): prepare (validate, reserve, retrieve), generate
 * within the deadline, then charge; any failure or interruption (client gone) releases the
 * reserved query, so a failed answer costs nothing. The answer goes out with the sources it
 * lists (every retrieved passage unless the generator chose them). Streaming runs the same two
 * phases around the generator's stream at the edge (src/http/routes/chat-stream.ts).
 */
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import { listedSources } from "../answers/answer-sources.ts";
import { type Answer, GenerationFailed, Generator } from "../ports/generator.ts";
import type { RetrievedChunk } from "../ports/retrieval.ts";
import type { QuotaView } from "../quota.ts";
import { finishAnswer, releaseAnswer } from "./finish-answer.ts";
import { type Declined, type PreparedAnswer, prepareAnswer, type Question } from "./prepare-answer.ts";

export {
  DECLINED,
  EmptyMessage,
  MAX_MESSAGE_LENGTH,
  MessageTooLong,
  type Question,
  QuotaExhausted,
  TOP_K,
} from "./prepare-answer.ts";

/**
 * An answer (streamed or not) must finish within this; it stays below the hold lease of the
 * stores (120 s), so a reservation can never lapse while its answer is still being produced.
 */
export const ANSWER_DEADLINE = Duration.seconds(90);

/** Fails a too-slow answer as a generation failure (503, nothing charged). */
export const withinDeadline = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.timeoutOrElse({
      duration: ANSWER_DEADLINE,
      orElse: () => Effect.fail(new GenerationFailed({ message: "the answer took too long" })),
    }),
  );

export interface AnsweredQuestion {
  readonly answer: Answer;
  /** What the answer lists, numbered as its [n] cite them (core/answers/answer-sources.ts). */
  readonly sources: ReadonlyArray<RetrievedChunk>;
  readonly rateLimit: QuotaView;
  /** How prepareAnswer ended (the insights read "declined" from it). */
  readonly outcome: PreparedAnswer | Declined;
}

/** What the generator is given for a prepared question. */
export const generationInput = (prepared: PreparedAnswer) => ({
  question: prepared.question,
  chunks: prepared.sources,
  history: prepared.history,
  indexVersion: prepared.indexVersion,
  answerLanguage: prepared.answerLanguage,
  language: prepared.language,
  searched: prepared.searched,
  ruleDeclines: prepared.ruleDeclines,
});

const generateFor = (prepared: PreparedAnswer) =>
  Effect.flatMap(Generator, (generator) => generator.generate(generationInput(prepared)));

/** The JSON chat use case. */
export const askQuestion = Effect.fn("askQuestion")(function* (question: Question) {
  const prepared = yield* prepareAnswer(question);
  if (prepared.kind === "declined") {
    const { answer, sources, rateLimit } = prepared;
    return { answer, sources, rateLimit, outcome: prepared } satisfies AnsweredQuestion;
  }
  const answer = yield* withinDeadline(generateFor(prepared)).pipe(
    Effect.onError(() => releaseAnswer(prepared)),
  );
  const rateLimit = yield* finishAnswer(prepared, answer);
  const sources = listedSources(answer, prepared.sources);
  return { answer, sources, rateLimit, outcome: prepared } satisfies AnsweredQuestion;
});
