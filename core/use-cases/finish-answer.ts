/**
 * Phase two of POST /api/chat: the answer is out (or is not), so the reserved query is
 * counted (commit, and the exchange joins the conversation) or given back (release).
 * Charging rule: a client is charged once answer text has reached it, so the edge calls
 * `chargeAnswer` when an answer completed or when a stream was cut after sending text, and
 * `releaseAnswer` otherwise. An answer that declines (the docs do not cover the question) is
 * never charged: `finishAnswer` picks between the two for a whole answer.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { Conversations } from "../ports/conversations.ts";
import type { Answer } from "../ports/generator.ts";
import { type PreparedAnswer, releaseHold } from "./prepare-answer.ts";
import { settleDeclined, settleQuery } from "./spend-query.ts";

/** Counts the query; with the whole answer, the exchange is remembered for follow-ups. */
export const chargeAnswer = Effect.fn("chargeAnswer")(function* (
  prepared: PreparedAnswer,
  answer: Answer | undefined,
) {
  const rateLimit = yield* settleQuery(prepared, prepared, "commit", yield* Clock.currentTimeMillis);
  if (answer !== undefined && prepared.conversationKey !== undefined) {
    const conversations = yield* Conversations;
    // The answer is charged and on its way: a store that cannot keep the history costs the next
    // follow-up its context, so it must not turn a delivered answer into an error.
    yield* conversations
      .append(prepared.conversationKey, [
        { role: "user", content: prepared.question },
        { role: "assistant", content: answer.text },
      ])
      .pipe(Effect.catchTag("StoreUnavailable", () => Effect.void));
  }
  return rateLimit;
});

/** Gives the query back: nothing reached the client, or we failed. */
export const releaseAnswer = (prepared: PreparedAnswer) => releaseHold(prepared, prepared);

/**
 * Settles a whole answer: released when it declined (and counted among the client's declines),
 * charged otherwise; the quota state after.
 */
export const finishAnswer = (prepared: PreparedAnswer, answer: Answer) =>
  answer.declined === true
    ? Effect.flatMap(Clock.currentTimeMillis, (now) => settleDeclined(prepared, prepared, now))
    : chargeAnswer(prepared, answer);
