import type { Answer } from "../ports/generator.ts";

/**
 * The uncharged answer to a question the docs do not cover (the closest sections, if any, go
 * with it): the relevance rule's decline, and a model's when the model could not be asked.
 */
export const DECLINED: Answer = {
  text: "The documentation does not seem to cover this question, so I cannot answer it. No query was charged.",
  tokensUsed: 0,
  declined: true,
};
