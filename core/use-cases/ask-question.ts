/**
 * POST /api/chat as a use case, in the spec's order: validate, check quota (reserve one
 * query), retrieve 5 passages, generate, count the query (commit), answer. The hold is
 * released on any failure or interruption, so a failed answer costs nothing.
 */
import { Cause, Clock, Duration, Effect, Schema } from "effect";
import { Conversations } from "../ports/conversations.ts";
import { type Answer, type ChatTurn, GenerationFailed, Generator } from "../ports/generator.ts";
import { QuotaStore } from "../ports/quota-store.ts";
import { type RetrievedChunk, Retriever } from "../ports/retrieval.ts";
import type { QuotaView } from "../quota.ts";
import { followUpQuery } from "./follow-up.ts";

export const TOP_K = 5;
export const MAX_MESSAGE_LENGTH = 2000;
/**
 * An answer (streamed or not) must finish within this; it stays below the hold lease of the
 * stores (120 s), so a reservation can never lapse while its answer is still being produced.
 */
export const ANSWER_DEADLINE = Duration.seconds(90);

/** The uncharged answer when the index has no passage at all for a question. */
export const NOTHING_FOUND: Answer = {
  text: "I could not find anything about this in the documentation, so I cannot answer it. No query was charged.",
  tokensUsed: 0,
};

export class EmptyMessage extends Schema.TaggedError<EmptyMessage>()("EmptyMessage", {}) {}
export class MessageTooLong extends Schema.TaggedError<MessageTooLong>()("MessageTooLong", {
  limit: Schema.Number,
}) {}

export interface Question {
  readonly identity: string;
  readonly message: string;
  readonly conversationId: string | undefined;
}

export interface AnsweredQuestion {
  readonly answer: Answer;
  readonly sources: ReadonlyArray<RetrievedChunk>;
  readonly rateLimit: QuotaView;
}

/** Step 1: the message rules. */
export const validateMessage = (message: string) =>
  message.trim() === ""
    ? Effect.fail(new EmptyMessage())
    : message.length > MAX_MESSAGE_LENGTH
      ? Effect.fail(new MessageTooLong({ limit: MAX_MESSAGE_LENGTH }))
      : Effect.succeed(message.trim());

/** Conversations are namespaced by identity, so one client can never read another's. */
const conversationKey = (question: Question) =>
  question.conversationId === undefined ? undefined : `${question.identity}:${question.conversationId}`;

/**
 * Runs `answerWith` between reserve and commit. Shared by the JSON and the streaming edge:
 * `answerWith` gets the sources and returns the answer however it is produced.
 */
export const withChargedQuery = <E, R>(
  question: Question,
  answerWith: (input: {
    readonly question: string;
    readonly sources: ReadonlyArray<RetrievedChunk>;
    readonly history: ReadonlyArray<ChatTurn>;
  }) => Effect.Effect<Answer, E, R>,
  /**
   * Whether answer text has already reached the client (streaming). A client that then hangs
   * up has been served and is charged; before that, or on our own failure, nothing is charged.
   */
  delivered: () => boolean = () => false,
) =>
  Effect.gen(function* () {
    const message = yield* validateMessage(question.message);
    const quota = yield* QuotaStore;
    const retriever = yield* Retriever;
    const conversations = yield* Conversations;
    const key = conversationKey(question);
    const { hold } = yield* quota.reserve(question.identity, yield* Clock.currentTimeMillis);
    // Failure and interruption (client gone) both end here: the query is given back.
    const giveBack = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.ignore(quota.release(question.identity, hold.id, now)),
    );
    const settleAbandoned = <X>(cause: Cause.Cause<X>) =>
      Cause.hasInterruptsOnly(cause) && delivered()
        ? Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.ignore(quota.commit(question.identity, hold.id, now)),
          )
        : giveBack;
    const found = yield* Effect.gen(function* () {
      const history = key === undefined ? [] : yield* conversations.recent(key);
      const sources = yield* retriever.retrieve(followUpQuery(message, history), TOP_K);
      return { history, sources };
    }).pipe(Effect.onError(() => giveBack));
    if (found.sources.length === 0) {
      // Nothing to answer from: say so honestly and charge nothing.
      const rateLimit = yield* quota.release(question.identity, hold.id, yield* Clock.currentTimeMillis);
      return { answer: NOTHING_FOUND, sources: [], rateLimit } satisfies AnsweredQuestion;
    }
    const answered = yield* answerWith({
      question: message,
      sources: found.sources,
      history: found.history,
    }).pipe(
      Effect.timeoutOrElse({
        duration: ANSWER_DEADLINE,
        orElse: () => Effect.fail(new GenerationFailed({ message: "the answer took too long" })),
      }),
      Effect.map((answer) => ({ answer, sources: found.sources })),
      Effect.onError(settleAbandoned),
    );
    const rateLimit = yield* quota.commit(question.identity, hold.id, yield* Clock.currentTimeMillis);
    if (key !== undefined) {
      yield* conversations.append(key, [
        { role: "user", content: message },
        { role: "assistant", content: answered.answer.text },
      ]);
    }
    return { ...answered, rateLimit } satisfies AnsweredQuestion;
  }).pipe(Effect.withSpan("askQuestion"));

/** The JSON (non-streaming) chat use case. */
export const askQuestion = (question: Question) =>
  withChargedQuery(question, ({ question: q, sources, history }) =>
    Effect.flatMap(Generator, (generator) => generator.generate({ question: q, chunks: sources, history })),
  );
