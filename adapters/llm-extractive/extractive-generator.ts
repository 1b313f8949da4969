/**
 * An answer without a language model: where in the docs the answer is, and the passages' most
 * relevant sentences, quoted with their [n] citations. It is the default when no LLM_API_KEY
 * is set and the fallback when the LLM fails. It never writes words of its own beyond the
 * section names and the fixed "not covered" sentence, and that answer is a decline (free).
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Stream from "effect/Stream";
import {
  type AnswerEvent,
  GenerationFailed,
  type GenerationInput,
  Generator,
} from "../../core/ports/generator.ts";
import { estimateTokens } from "../shared/token-estimate.ts";
import { renderPieces, selectPieces } from "./compose.ts";

const NO_PASSAGES = "no documentation passages were found for this question";

/** The answer when no passage says anything about the question: a decline, so it is free. */
export const NOT_COVERED =
  "The documentation does not seem to cover this question, so I cannot answer it. No query was charged.";

/** The answer as text pieces (deltas), joined, and its token estimate. */
const compose = (
  input: GenerationInput,
): Effect.Effect<
  {
    readonly parts: ReadonlyArray<string>;
    readonly text: string;
    readonly tokensUsed: number;
    readonly declined: boolean;
  },
  GenerationFailed
> => {
  // Nothing retrieved means nothing to quote: a failure, so the use case does not charge.
  if (input.chunks.length === 0) return Effect.fail(new GenerationFailed({ message: NO_PASSAGES }));
  const pieces = selectPieces(input.question, input.chunks);
  const declined = pieces.length === 0;
  const parts = declined ? [NOT_COVERED] : renderPieces(pieces);
  const text = parts.join("");
  const read = [input.question, ...input.chunks.map((chunk) => chunk.text)];
  return Effect.succeed({ parts, text, tokensUsed: estimateTokens(read, text), declined });
};

/** The extractive generator. */
export const extractiveGenerator = Generator.of({
  name: "extractive",
  generate: Effect.fn("ExtractiveGenerator.generate")(function* (input: GenerationInput) {
    const { text, tokensUsed, declined } = yield* compose(input);
    return declined ? { text, tokensUsed, declined } : { text, tokensUsed };
  }),
  stream: (input) =>
    Stream.unwrap(
      Effect.map(compose(input), ({ parts, text, tokensUsed, declined }) =>
        Stream.concat(
          Stream.fromIterable(parts.map((part): AnswerEvent => ({ type: "delta", text: part }))),
          Stream.succeed<AnswerEvent>({
            type: "done",
            answer: declined ? { text, tokensUsed, declined } : { text, tokensUsed },
          }),
        ),
      ),
    ),
});

/** The extractive generator as a layer. */
export const layer: Layer.Layer<Generator> = Layer.succeed(Generator, extractiveGenerator);
