import { Context, type Effect, Schema } from "effect";
import type { Feedback } from "../feedback.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/** No answer with this id was given to this client (unknown, expired, or someone else's). */
export class UnknownAnswer extends Schema.TaggedError<UnknownAnswer>()("UnknownAnswer", {}) {}

/**
 * Answer ids and the votes on them. An id is issued with each answer and bound to the client
 * that got it, so only that client can vote on it; a second vote replaces the first.
 */
export class FeedbackStore extends Context.Service<
  FeedbackStore,
  {
    /** A fresh answer id, remembered for `identity`. */
    readonly issue: (identity: string, now: number) => Effect.Effect<string, StoreUnavailable>;
    readonly record: (
      identity: string,
      feedback: Feedback,
    ) => Effect.Effect<void, UnknownAnswer | StoreUnavailable>;
  }
>()("core/FeedbackStore") {}
