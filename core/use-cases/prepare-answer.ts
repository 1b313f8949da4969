/**
 * Phase one of POST /api/chat, in the spec's order: validate the message, check the quota
 * (reserve one query), load the conversation and retrieve 5 passages. It ends holding a
 * reserved query, which phase two (finish-answer.ts) commits or releases once the answer is
 * out; between the two the edge answers in JSON or streams. Any failure here gives the query
 * back; a question the docs do not cover (core/answers/relevance.ts decides from what retrieval
 * measured) is declined here, uncharged and without calling the model. With a language model
 * (one that judges relevance itself), only a question nothing in the docs matches is declined
 * here; the model says the docs do not cover the rest. A question in another language than the
 * docs' is translated for retrieval by the model, or without one declined with a notice in the
 * visitor's language (uncharged, and no docs gap).
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { DECLINED } from "../answers/declined.ts";
import { languageNotice } from "../answers/language-notice.ts";
import { decideRelevance, nothingMatches, type RelevanceEvidence } from "../answers/relevance.ts";
import { callerReference } from "../payments/memo-reference.ts";
import { PaymentSettings, PaymentTerms } from "../payments/payment-settings.ts";
import { Conversations } from "../ports/conversations.ts";
import { type Answer, type ChatTurn, Generator } from "../ports/generator.ts";
import { type Retrieval, RetrievalAsker, type RetrievedChunk } from "../ports/retrieval.ts";
import type { Hold, QuotaView } from "../quota.ts";
import { followUpQuery } from "./follow-up.ts";
import { retrieveInDocsLanguage } from "./retrieve-in-docs-language.ts";
import { type HeldQuery, reserveQuery, type Spender, settleDeclined, settleQuery } from "./spend-query.ts";

export const TOP_K = 5;
export const MAX_MESSAGE_LENGTH = 2000;

export { DECLINED } from "../answers/declined.ts";

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
  /** The visitor's locale (the widget's, or Accept-Language), for a notice in their language. */
  readonly locale?: string | undefined;
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
  /** The visitor's language when it is not the docs' (the question was translated for retrieval). */
  readonly answerLanguage?: string | undefined;
  /** The docs' language. */
  readonly language?: string | undefined;
  /** The question as retrieval read it: its translation into the docs' language, or itself. */
  readonly searched?: string | undefined;
  /** The relevance rule declines it; only the model, judging for itself, may answer it. */
  readonly ruleDeclines?: boolean | undefined;
}

/** Declined without the model (the docs do not cover it) and already given back. */
export interface Declined {
  readonly kind: "declined";
  readonly answer: Answer;
  readonly rateLimit: QuotaView;
  readonly evidence: RelevanceEvidence;
  /** The closest passages found, shown as sources so the reader can look for themselves. */
  readonly sources: ReadonlyArray<RetrievedChunk>;
  /**
   * Why: the docs do not cover it ("uncovered": a docs gap), or it is written in another
   * language (ISO 639-1 code) than the docs and nothing could translate it (not a gap).
   */
  readonly reason: "uncovered" | { readonly language: string };
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
    const reference = yield* callerReference(identity);
    return yield* Effect.fail(new QuotaExhausted({ resetAt, reference, terms }));
  });

export const prepareAnswer = Effect.fn("prepareAnswer")(function* (question: Question) {
  const message = yield* validateMessage(question.message);
  const conversations = yield* Conversations;
  const conversationKey = conversationKeyOf(question);
  const held = yield* reserveQuery(question, yield* Clock.currentTimeMillis).pipe(
    Effect.catchTag("QuotaExhausted", ({ resetAt }) => offerPayment(question.identity, resetAt)),
  );
  const { hold } = held;
  const found = yield* Effect.gen(function* () {
    const history = conversationKey === undefined ? [] : yield* conversations.recent(conversationKey);
    return { history, ...(yield* retrieveInDocsLanguage(followUpQuery(message, history), TOP_K)) };
  }).pipe(
    // A question holds one of the client's queries: it may load a cold index on the client's count.
    Effect.provideService(RetrievalAsker, { client: question.identity, question: true }),
    Effect.onError(() => releaseHold(question, held)),
  );
  const decline = (answer: Answer, retrieval: Retrieval, reason: Declined["reason"]) =>
    Effect.map(
      Effect.flatMap(Clock.currentTimeMillis, (now) => settleDeclined(question, held, now)),
      (rateLimit): Declined => ({
        kind: "declined",
        answer,
        rateLimit,
        evidence: retrieval.evidence,
        // The closest sections, for the reader to look for themselves; a question in another
        // language found none that mean anything.
        sources: reason === "uncovered" ? retrieval.chunks : [],
        reason,
      }),
    );
  const { retrieval, answerLanguage, searched } = found;
  if (retrieval === undefined) {
    // In another language, and nothing to translate it with: say so in the visitor's language.
    const { language, questionLanguage } = found.asked;
    const text = languageNotice(language, questionLanguage, question.locale);
    return yield* decline({ text, tokensUsed: 0, declined: true }, found.asked, {
      language: questionLanguage,
    });
  }
  const { chunks, evidence, indexVersion } = retrieval;
  const ruleDeclines = decideRelevance(evidence) === "decline";
  // A model judges for itself what the passages answer: only a question nothing matches stops here.
  const generator = yield* Generator;
  const stop = generator.judgesRelevance === true ? nothingMatches(evidence) : ruleDeclines;
  if (chunks.length === 0 || stop)
    // Nothing to answer from: say so honestly and charge nothing.
    return yield* decline(DECLINED, retrieval, "uncovered");
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
    answerLanguage,
    searched,
    language: retrieval.language,
    ruleDeclines,
  } satisfies PreparedAnswer;
});

/** Gives a reserved query back; a failure to do so only delays it (the hold lapses). */
export const releaseHold = (spender: Spender, held: HeldQuery) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.ignore(settleQuery(spender, held, "release", now)));
