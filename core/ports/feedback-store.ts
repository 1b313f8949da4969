import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { Feedback, UnknownAnswer } from "../answers/feedback.ts";
import type { StoreUnavailable } from "./store-errors.ts";

export { UnknownAnswer } from "../answers/feedback.ts";

/**
 * Answer ids and the votes on them. An id is issued with each answer and bound to the client
 * that got it, so only that client can vote on it; a second vote replaces the first.
 */
export class FeedbackStore extends Context.Service<
  FeedbackStore,
  {
    /** Keeps the vote, replacing an earlier one; only for an id issued to `identity`. */
    readonly record: (
      identity: string,
      vote: Feedback,
    ) => Effect.Effect<void, UnknownAnswer | StoreUnavailable>;
    /** A fresh answer id, remembered for `identity`. */
    readonly issue: (identity: string, now: number) => Effect.Effect<string, StoreUnavailable>;
  }
>()("core/FeedbackStore") {}
