/**
 * A generator that answers with `fallback` when `primary` fails. A stream falls back only if
 * the primary failed before its first event: once text has reached the client, switching
 * generators would splice two answers, so the stream fails and the caller gives the query back.
 * A question the relevance rule declines reached the primary only because a model judges for
 * itself: without the model it is declined (free), not answered by the fallback.
 */
import * as Context from "effect/Context";
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

export interface FallbackEvent {
  readonly mode: "generate" | "stream";
  readonly primary: string;
  readonly fallback: string;
  /** The primary's failure message (never contains secrets: ours are written without them). */
  readonly reason: string;
}

export interface FallbackOptions {
  /** Called on every fallback; without it a WARN goes to Effect's logger. */
  readonly onFallback?: ((event: FallbackEvent) => void) | undefined;
  /**
   * The longest the primary may take, retries included, before the fallback answers instead
   * (for a stream: to each event, so the first text comes within it). Unset: no limit beyond
   * the primary's own.
   */
  readonly primaryBudgetMs?: number | undefined;
}

type GeneratorShape = Context.Service.Shape<typeof Generator>;

const declinedEvents = (answer: Answer): ReadonlyArray<AnswerEvent> => [
  { type: "delta", text: answer.text },
  { type: "done", answer },
];

/** The fallback, or the free decline for a question only a model may answer. */
const fallbackFor = (fallback: GeneratorShape) => ({
  generate: (input: GenerationInput) =>
    input.ruleDeclines === true ? Effect.succeed(DECLINED) : fallback.generate(input),
  stream: (input: GenerationInput) =>
    input.ruleDeclines === true ? Stream.fromIterable(declinedEvents(DECLINED)) : fallback.stream(input),
});

/** Combines two generator implementations. */
const combine = (
  primary: GeneratorShape,
  fallback: GeneratorShape,
  options: FallbackOptions = {},
): GeneratorShape => {
  const notify = (mode: FallbackEvent["mode"], error: GenerationFailed) => {
    const event = { mode, primary: primary.name, fallback: fallback.name, reason: error.message };
    const { onFallback } = options;
    return onFallback === undefined
      ? Effect.logWarning("LLM failed; answering with the fallback generator").pipe(
          Effect.annotateLogs(event),
        )
      : Effect.sync(() => onFallback(event));
  };
  const budget = options.primaryBudgetMs;
  const second = fallbackFor(fallback);
  const tooSlow = () =>
    new GenerationFailed({ message: `${primary.name} gave no answer within ${budget} ms` });
  const generateInBudget = (input: GenerationInput) =>
    budget === undefined
      ? primary.generate(input)
      : primary
          .generate(input)
          .pipe(Effect.timeoutOrElse({ duration: budget, orElse: () => Effect.fail(tooSlow()) }));
  const streamInBudget = (input: GenerationInput) =>
    budget === undefined
      ? primary.stream(input)
      : primary
          .stream(input)
          .pipe(Stream.timeoutOrElse({ duration: budget, orElse: () => Stream.fail(tooSlow()) }));
  return Generator.of({
    name: `${primary.name} (fallback: ${fallback.name})`,
    judgesRelevance: primary.judgesRelevance,
    translate: primary.translate,
    // With no passages every generator refuses the same way; that is no reason to warn.
    generate: (input: GenerationInput) =>
      input.chunks.length === 0
        ? primary.generate(input)
        : generateInBudget(input).pipe(
            Effect.catchTag("GenerationFailed", (error) =>
              Effect.andThen(notify("generate", error), second.generate(input)),
            ),
          ),
    stream: (input: GenerationInput) =>
      input.chunks.length === 0
        ? primary.stream(input)
        : Stream.suspend(() => {
            let started = false;
            return streamInBudget(input).pipe(
              Stream.tap(() =>
                Effect.sync(() => {
                  started = true;
                }),
              ),
              Stream.catchTag("GenerationFailed", (error) =>
                started
                  ? Stream.fail(error)
                  : Stream.unwrap(Effect.as(notify("stream", error), second.stream(input))),
              ),
            );
          }),
  });
};

/** The combined generator as a layer; both layers are built once, with this one. */
export const withFallback = <E1, R1, E2, R2>(
  primary: Layer.Layer<Generator, E1, R1>,
  fallback: Layer.Layer<Generator, E2, R2>,
  options: FallbackOptions = {},
): Layer.Layer<Generator, E1 | E2, R1 | R2> =>
  Layer.effect(
    Generator,
    Effect.gen(function* () {
      const first = Context.get(yield* Layer.build(primary), Generator);
      const second = Context.get(yield* Layer.build(fallback), Generator);
      return combine(first, second, options);
    }),
  );
