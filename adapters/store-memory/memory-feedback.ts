/**
 * Answer ids and votes in process memory (volatile, like the rest of the memory store). Both
 * maps are bounded: an answer id is forgotten after ANSWER_MEMORY_MS, and past MAX_ANSWERS the
 * oldest ids go first (a Map iterates in insertion order), votes with them.
 */
import { Result } from "effect";
import { ANSWER_MEMORY_MS, type Feedback } from "../../core/feedback.ts";
import { UnknownAnswer } from "../../core/ports/feedback-store.ts";

export const MAX_ANSWERS = 100_000;

interface IssuedAnswer {
  readonly identity: string;
  readonly issuedAt: number;
  feedback: Feedback | undefined;
}

export const makeMemoryFeedback = (newAnswerId: () => string) => {
  const answers = new Map<string, IssuedAnswer>();
  const forgetOld = (now: number) => {
    for (const [id, answer] of answers) {
      if (answers.size <= MAX_ANSWERS && now - answer.issuedAt < ANSWER_MEMORY_MS) break;
      answers.delete(id);
    }
  };
  return {
    issue: (identity: string, now: number): string => {
      forgetOld(now);
      const id = newAnswerId();
      answers.set(id, { identity, issuedAt: now, feedback: undefined });
      return id;
    },
    record: (identity: string, feedback: Feedback): Result.Result<void, UnknownAnswer> => {
      const answer = answers.get(feedback.answerId);
      if (
        answer === undefined ||
        answer.identity !== identity ||
        feedback.at - answer.issuedAt >= ANSWER_MEMORY_MS
      )
        return Result.fail(new UnknownAnswer());
      answer.feedback = feedback;
      return Result.succeed(undefined);
    },
    /** The vote kept for an answer, for tests. */
    feedbackOf: (answerId: string): Feedback | undefined => answers.get(answerId)?.feedback,
  };
};
