/**
 * An answer without a language model: where in the docs the answer is, and the passages' most
 * relevant sentences, quoted with their [n] citations. It is the default when no LLM_API_KEY
 * is set and the fallback when the LLM fails. It never writes words of its own beyond the
 * section names and the fixed "not covered" sentence, and that answer is a decline (free).
 * It lists as sources only the passages related to the question, cited ones first
 * (compose.ts), and says so before its text when streaming.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Stream from "effect/Stream";
import { DECLINED } from "../../core/answers/declined.ts";
import {
  type Answer,
  type AnswerEvent,
  GenerationFailed,
  type GenerationInput,
  Generator,
} from "../../core/ports/generator.ts";
import { estimateTokens } from "../shared/token-estimate.ts";
import { renderPieces, selectPieces } from "./compose.ts";

const NO_PASSAGES = "no documentation passages were found for this question";

/** The answer when no passage says anything about the question: the service's decline, so it is free. */
export const NOT_COVERED = DECLINED.text;

/** The answer: its text pieces (deltas), joined, with the sources it lists; or the decline. */
const compose = (
  input: GenerationInput,
): Effect.Effect<{ readonly parts: ReadonlyArray<string>; readonly answer: Answer }, GenerationFailed> => {
  // Nothing retrieved means nothing to quote: a failure, so the use case does not charge.
  if (input.chunks.length === 0) return Effect.fail(new GenerationFailed({ message: NO_PASSAGES }));
  // Quoted from the passages' language: a translated question is matched as it was searched.
  const { pieces, listed } = selectPieces(input.searched ?? input.question, input.chunks, input.language);
  const parts = pieces.length === 0 ? [NOT_COVERED] : renderPieces(pieces);
  const text = parts.join("");
  const read = [input.question, ...input.chunks.map((chunk) => chunk.text)];
  const tokensUsed = estimateTokens(read, text);
  // A decline keeps the closest sections as its sources: the input's own list.
  const answer: Answer =
    pieces.length === 0 ? { text, tokensUsed, declined: true } : { text, tokensUsed, listed };
  return Effect.succeed({ parts, answer });
};

/** The extractive generator. */
export const extractiveGenerator = Generator.of({
  name: "extractive",
  generate: Effect.fn("ExtractiveGenerator.generate")(function* (input: GenerationInput) {
    return (yield* compose(input)).answer;
  }),
  stream: (input) =>
    Stream.unwrap(
      Effect.map(compose(input), ({ parts, answer }) =>
        Stream.fromIterable<AnswerEvent>([
          ...(answer.listed === undefined ? [] : [{ type: "sources" as const, listed: answer.listed }]),
          ...parts.map((part): AnswerEvent => ({ type: "delta", text: part })),
          { type: "done", answer },
        ]),
      ),
    ),
});

/** The extractive generator as a layer. */
export const layer: Layer.Layer<Generator> = Layer.succeed(Generator, extractiveGenerator);
