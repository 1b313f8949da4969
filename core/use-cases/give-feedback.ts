/** POST /api/feedback as a use case: decode the vote, keep it for the client's own answer. */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { decodeFeedbackRequest, type Feedback, toFeedback } from "../answers/feedback.ts";
import { FeedbackStore } from "../ports/feedback-store.ts";

/** The body is not a valid vote; `problem` says which field and why. */
export class InvalidFeedback extends Schema.TaggedError<InvalidFeedback>()("InvalidFeedback", {
  problem: Schema.String,
}) {}

export const giveFeedback = (identity: string, body: unknown) =>
  Effect.gen(function* () {
    const decoded = decodeFeedbackRequest(body);
    if (Result.isFailure(decoded)) return yield* new InvalidFeedback({ problem: decoded.failure.message });
    const feedback: Feedback = toFeedback(decoded.success, yield* Clock.currentTimeMillis);
    yield* Effect.flatMap(FeedbackStore, (store) => store.record(identity, feedback));
    return feedback;
  }).pipe(Effect.withSpan("giveFeedback"));
