/**
 * An answer without a language model: the passages' most relevant sentences, quoted with
 * their [n] citations. It is the default when no LLM_API_KEY is set and the fallback when the
 * LLM fails. It never writes words of its own beyond the fixed "not covered" sentence.
 */
import { Effect, Layer, Stream } from "effect";
import {
  type AnswerEvent,
  GenerationFailed,
  type GenerationInput,
  Generator,
} from "../../core/ports/generator.ts";
import { estimateTokens } from "../shared/token-estimate.ts";
import { noAnswer, renderPieces, selectPieces } from "./compose.ts";

const NO_PASSAGES = "no documentation passages were found for this question";

/** The answer as text pieces (deltas), joined, and its token estimate. */
const compose = (
  input: GenerationInput,
): Effect.Effect<
  { readonly parts: ReadonlyArray<string>; readonly text: string; readonly tokensUsed: number },
  GenerationFailed
> => {
  // Nothing retrieved means nothing to quote: a failure, so the use case does not charge.
  if (input.chunks.length === 0) return Effect.fail(new GenerationFailed({ message: NO_PASSAGES }));
  const pieces = selectPieces(input.question, input.chunks);
  const parts = pieces.length === 0 ? [noAnswer(input.chunks)] : renderPieces(pieces);
  const text = parts.join("");
  const read = [input.question, ...input.chunks.map((chunk) => chunk.text)];
  return Effect.succeed({ parts, text, tokensUsed: estimateTokens(read, text) });
};

/** The extractive generator. */
export const extractiveGenerator = Generator.of({
  name: "extractive",
  generate: Effect.fn("ExtractiveGenerator.generate")(function* (input: GenerationInput) {
    const { text, tokensUsed } = yield* compose(input);
    return { text, tokensUsed };
  }),
  stream: (input) =>
    Stream.unwrap(
      Effect.map(compose(input), ({ parts, text, tokensUsed }) =>
        Stream.concat(
          Stream.fromIterable(parts.map((part): AnswerEvent => ({ type: "delta", text: part }))),
          Stream.succeed<AnswerEvent>({ type: "done", answer: { text, tokensUsed } }),
        ),
      ),
    ),
});

/** The extractive generator as a layer. */
export const layer: Layer.Layer<Generator> = Layer.succeed(Generator, extractiveGenerator);
