import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { Answer } from "./generator.ts";

/**
 * Answers already given, by key (built from the normalised question, the conversation context
 * and the index version). A cache that cannot be reached is a miss, never a failure: the
 * answer is then written as if there were no cache.
 */
export class AnswerCache extends Context.Service<
  AnswerCache,
  {
    readonly get: (key: string) => Effect.Effect<Answer | undefined>;
    readonly set: (key: string, answer: Answer) => Effect.Effect<void>;
  }
>()("core/AnswerCache") {}
