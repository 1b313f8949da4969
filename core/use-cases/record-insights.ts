/**
 * Recording for the owner's insights. Each runs once a response is decided (the edge starts it
 * and does not wait); a failure here never reaches the visitor. The identity is hashed before
 * anything is built, so the raw address never leaves this step.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import type { Feedback } from "../answers/feedback.ts";
import { InsightsSettings } from "../insights/insights-settings.ts";
import { type AnswerRecord, questionEvent } from "../insights/question-event.ts";
import { type AcceptedPayment, paymentEvent, voteEvent } from "../insights/vote-and-payment-events.ts";
import { InsightsStore } from "../ports/insights-store.ts";
import { VisitorHasher } from "../ports/visitor-hasher.ts";

/** The time and the visitor's hash of `identity` at that time. */
const visitorNow = (identity: string) =>
  Effect.gen(function* () {
    const hasher = yield* VisitorHasher;
    const at = yield* Clock.currentTimeMillis;
    return { at, visitor: hasher.hash(identity, at) };
  });

export const recordAnswer = Effect.fn("recordAnswer")(function* (answered: AnswerRecord) {
  const { redaction } = yield* InsightsSettings;
  const store = yield* InsightsStore;
  const recording = yield* visitorNow(answered.question.identity);
  yield* store.append(questionEvent(answered, { ...recording, redaction }));
});

export const recordVote = Effect.fn("recordVote")(function* (feedback: Feedback) {
  const { redaction } = yield* InsightsSettings;
  const store = yield* InsightsStore;
  yield* store.append(voteEvent(feedback, redaction));
});

export const recordPayment = Effect.fn("recordPayment")(function* (payment: AcceptedPayment) {
  const store = yield* InsightsStore;
  yield* store.append(paymentEvent(payment, yield* visitorNow(payment.identity)));
});
