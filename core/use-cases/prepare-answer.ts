/**
 * Phase one of POST /api/chat, in the spec's order: validate the message, check the quota
 * (reserve one query), load the conversation and retrieve 5 passages. It ends holding a
 * reserved query, which phase two (finish-answer.ts) commits or releases once the answer is
 * out; between the two the edge answers in JSON or streams. Any failure here gives the query
 * back; a question the docs do not cover (core/relevance.ts decides from what retrieval
 * measured) is declined here, uncharged and without calling the model.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { PaymentSettings, PaymentTerms } from "../payments/payment-settings.ts";
import { Conversations } from "../ports/conversations.ts";
import type { Answer, ChatTurn } from "../ports/generator.ts";
import { PaymentStore } from "../ports/payment-store.ts";
import { type RetrievedChunk, Retriever } from "../ports/retrieval.ts";
import type { Hold, QuotaView } from "../quota.ts";
import { decideRelevance, type RelevanceEvidence } from "../relevance.ts";
import { followUpQuery } from "./follow-up.ts";
import { type HeldQuery, reserveQuery, type Spender, settleQuery } from "./spend-query.ts";

export const TOP_K = 5;
export const MAX_MESSAGE_LENGTH = 2000;

/** The uncharged answer to a question the docs do not cover (the closest sections, if any, go with it). */
export const DECLINED: Answer = {
  text: "The documentation does not seem to cover this question, so I cannot answer it. No query was charged.",
  tokensUsed: 0,
  declined: true,
};

export class EmptyMessage extends Schema.TaggedError<EmptyMessage>()("EmptyMessage", {}) {}
export class MessageTooLong extends Schema.TaggedError<MessageTooLong>()("MessageTooLong", {
  limit: Schema.Number,
}) {}

/**
 * Nothing left to spend (the store's QuotaExhausted), with what the 402 needs to offer a
 * payment: the terms and the caller's memo reference.
 */
export class QuotaExhausted extends Schema.TaggedError<QuotaExhausted>()("QuotaExhausted", {
  resetAt: Schema.Number,
  reference: Schema.String,
  terms: PaymentTerms,
}) {}

export interface Question {
  readonly identity: string;
  /** The wallet whose credits this client may spend first (its session, or a sign-in). */
  readonly wallet?: string | undefined;
  /** The wallet is reached through the identity's payer link: capped by what it bought there. */
  readonly throughLink?: boolean | undefined;
  readonly message: string;
  readonly conversationId: string | undefined;
}

/** A question holding one reserved query, with what the answer is written from. */
export interface PreparedAnswer {
  readonly kind: "ready";
  readonly identity: string;
  readonly wallet: string | undefined;
  readonly throughLink?: boolean | undefined;
  readonly hold: Hold;
  /** The hold is on the wallet's credits (else on the identity's quota). */
  readonly onWallet: boolean;
  /** The message as the model gets it (trimmed). */
  readonly question: string;
  readonly sources: ReadonlyArray<RetrievedChunk>;
  readonly history: ReadonlyArray<ChatTurn>;
  /** Where the exchange is remembered, when the client keeps a conversation. */
  readonly conversationKey: string | undefined;
  /** The index the sources come from (answers are cached per version). */
  readonly indexVersion: string;
}

/** Declined without the model (the docs do not cover it) and already given back. */
export interface Declined {
  readonly kind: "declined";
  readonly answer: Answer;
  readonly rateLimit: QuotaView;
  readonly evidence: RelevanceEvidence;
  /** The closest passages found, shown as sources so the reader can look for themselves. */
  readonly sources: ReadonlyArray<RetrievedChunk>;
}

/** Step 1: the message rules. */
export const validateMessage = (message: string): Effect.Effect<string, EmptyMessage | MessageTooLong> =>
  message.trim() === ""
    ? Effect.fail(new EmptyMessage())
    : message.length > MAX_MESSAGE_LENGTH
      ? Effect.fail(new MessageTooLong({ limit: MAX_MESSAGE_LENGTH }))
      : Effect.succeed(message.trim());

/** Conversations are namespaced by identity, so one client can never read another's. */
const conversationKeyOf = (question: Question) =>
  question.conversationId === undefined ? undefined : `${question.identity}:${question.conversationId}`;

/** The payment offer that goes with an exhausted quota. */
const offerPayment = (identity: string, resetAt: number) =>
  Effect.gen(function* () {
    const terms = yield* PaymentSettings;
    const store = yield* PaymentStore;
    const reference = yield* store.referenceFor(identity, yield* Clock.currentTimeMillis);
    return yield* Effect.fail(new QuotaExhausted({ resetAt, reference, terms }));
  });

export const prepareAnswer = Effect.fn("prepareAnswer")(function* (question: Question) {
  const message = yield* validateMessage(question.message);
  const retriever = yield* Retriever;
  const conversations = yield* Conversations;
  const conversationKey = conversationKeyOf(question);
  const held = yield* reserveQuery(question, yield* Clock.currentTimeMillis).pipe(
    Effect.catchTag("QuotaExhausted", ({ resetAt }) => offerPayment(question.identity, resetAt)),
  );
  const { hold } = held;
  const found = yield* Effect.gen(function* () {
    const history = conversationKey === undefined ? [] : yield* conversations.recent(conversationKey);
    const retrieval = yield* retriever.retrieve(followUpQuery(message, history), TOP_K);
    return { history, retrieval };
  }).pipe(Effect.onError(() => releaseHold(question, held)));
  const { chunks, evidence, indexVersion } = found.retrieval;
  if (chunks.length === 0 || decideRelevance(evidence) === "decline") {
    // Nothing to answer from: say so honestly and charge nothing.
    const rateLimit = yield* settleQuery(question, held, "release", yield* Clock.currentTimeMillis);
    return { kind: "declined", answer: DECLINED, rateLimit, evidence, sources: chunks } satisfies Declined;
  }
  return {
    kind: "ready",
    identity: question.identity,
    // The wallet the hold found (a payer link's is known only from here on).
    wallet: held.wallet,
    throughLink: question.throughLink,
    hold,
    onWallet: held.onWallet,
    question: message,
    sources: chunks,
    history: found.history,
    conversationKey,
    indexVersion,
  } satisfies PreparedAnswer;
});

/** Gives a reserved query back; a failure to do so only delays it (the hold lapses). */
export const releaseHold = (spender: Spender, held: HeldQuery) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.ignore(settleQuery(spender, held, "release", now)));
