/**
 * Answer ids and votes in process memory (volatile, like the rest of the memory store). Both
 * are bounded: an answer id is forgotten after ANSWER_MEMORY_MS, and past MAX_ANSWERS the
 * oldest ids go first (answer-ids.ts keeps them in issue order), votes with them.
 */
import * as Result from "effect/Result";
import { ANSWER_MEMORY_MS, type Feedback } from "../../../core/answers/feedback.ts";
import { UnknownAnswer } from "../../../core/ports/feedback-store.ts";
import { makeAnswerIds } from "./answer-ids.ts";

export const MAX_ANSWERS = 100_000;

/** The feedback store's state; `newAnswerId` must give UUIDs (the ids clients send back are checked as such). */
export const makeMemoryFeedback = (newAnswerId: () => string) => {
  const answers = makeAnswerIds(MAX_ANSWERS);
  // Votes by their answer's lookup key: few answers get one.
  const votes = new Map<number, Feedback>();
  const forgetOld = (now: number) => {
    for (let oldest = answers.oldest(); oldest !== undefined; oldest = answers.oldest()) {
      if (answers.size() < MAX_ANSWERS && now - oldest.issuedAt < ANSWER_MEMORY_MS) break;
      votes.delete(answers.dropOldest());
    }
  };
  return {
    issue: (identity: string, now: number): string => {
      forgetOld(now);
      let id = newAnswerId();
      // Two held ids sharing their first 52 bits (about one in 10^11 draws at 100,000 held): draw again.
      while (!answers.isFree(id)) id = newAnswerId();
      answers.add(id, identity, now);
      return id;
    },
    record: (identity: string, feedback: Feedback): Result.Result<void, UnknownAnswer> => {
      const slot = answers.find(feedback.answerId);
      if (
        slot === undefined ||
        answers.ownerOf(slot) !== identity ||
        feedback.at - answers.issuedAtOf(slot) >= ANSWER_MEMORY_MS
      )
        return Result.fail(new UnknownAnswer());
      votes.set(answers.keyAt(slot), feedback);
      return Result.succeed(undefined);
    },
    /** The vote kept for an answer, for tests. */
    feedbackOf: (answerId: string): Feedback | undefined => {
      const slot = answers.find(answerId);
      return slot === undefined ? undefined : votes.get(answers.keyAt(slot));
    },
    /** Answer ids held, for /metrics. */
    size: () => answers.size(),
  };
};
