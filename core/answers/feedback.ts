/**
 * A visitor's vote on one answer (POST /api/feedback). The request is decoded with this schema
 * (and the same schema is what the OpenAPI document describes), so nothing malformed reaches a
 * store.
 */
import * as Schema from "effect/Schema";
import { DAY_MS } from "../time.ts";

/** How long a visitor can still vote on an answer (its id stays bound to them that long). */
export const ANSWER_MEMORY_MS = 7 * DAY_MS;

/** Answer ids are the UUIDs the store hands out with each answer. */
export const ANSWER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MAX_COMMENT_LENGTH = 1000;

export const FeedbackRequest = Schema.Struct({
  answerId: Schema.String.pipe(Schema.check(Schema.isPattern(ANSWER_ID_PATTERN))),
  vote: Schema.Literals(["up", "down"]),
  comment: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(MAX_COMMENT_LENGTH)))),
});
export type FeedbackRequest = typeof FeedbackRequest.Type;

/** What is kept: the vote, a trimmed comment (none when blank) and when it was given. */
export interface Feedback {
  readonly answerId: string;
  readonly vote: "up" | "down";
  readonly comment: string | undefined;
  readonly at: number;
}

/** No answer with this id was given to this client (unknown, expired, or someone else's). */
export class UnknownAnswer extends Schema.TaggedError<UnknownAnswer>()("UnknownAnswer", {}) {}

export const decodeFeedbackRequest = Schema.decodeUnknownResult(FeedbackRequest);

/** The request as it is stored at `now`. */
export const toFeedback = (request: FeedbackRequest, now: number): Feedback => {
  const comment = request.comment?.trim();
  return {
    answerId: request.answerId,
    vote: request.vote,
    comment: comment === "" ? undefined : comment,
    at: now,
  };
};
