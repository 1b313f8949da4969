/**
 * A generator that remembers its answers (spec: external-service failures fall back "to cached
 * data where available"). An answer is kept under two keys, both within one index version so a
 * re-index invalidates them: the exact one (normalised question + conversation context) and a
 * looser one (the question alone). An identical question is answered from the exact key without
 * calling the model (it is still charged: the caller does not know); when the model fails, an
 * answer given to the same question in another conversation is served before the caller's own
 * fallback. Streams are cached too: a hit is sent as one delta. Without an index version the
 * input is not cacheable and goes straight to the primary.
 */
import { createHash } from "node:crypto";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Stream from "effect/Stream";
import { AnswerCache } from "../../core/ports/answer-cache.ts";
import {
  type Answer,
  type AnswerEvent,
  type GenerationFailed,
  type GenerationInput,
  Generator,
} from "../../core/ports/generator.ts";

export type CacheOutcome = "hit" | "miss" | "rescued";

export interface CacheOptions {
  /** Told about every cacheable question: answered from the cache, or written by the model. */
  readonly onCache?: ((outcome: CacheOutcome) => void) | undefined;
}

/** Case, spacing and trailing punctuation do not make a different question. */
export const normaliseQuestion = (question: string): string =>
  question
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s?!.]+$/, "")
    .trim();

const digest = (parts: ReadonlyArray<string>) =>
  createHash("sha256").update(parts.join("\u0000")).digest("hex");

/** The exact and the loose key of an input; undefined when it has no index version. */
export const cacheKeys = (input: GenerationInput) => {
  if (input.indexVersion === undefined) return undefined;
  const question = normaliseQuestion(input.question);
  const context = input.history.map((turn) => `${turn.role}:${turn.content.replace(/\s+/g, " ").trim()}`);
  return {
    exact: digest(["exact", input.indexVersion, question, ...context]),
    loose: digest(["loose", input.indexVersion, question]),
  };
};

/** A remembered answer as a stream: the sources it lists (when it chose them), its text, done. */
const asStream = (answer: Answer): Stream.Stream<AnswerEvent> =>
  Stream.fromIterable<AnswerEvent>([
    ...(answer.listed === undefined ? [] : [{ type: "sources" as const, listed: answer.listed }]),
    { type: "delta", text: answer.text },
    { type: "done", answer },
  ]);

type GeneratorShape = Context.Service.Shape<typeof Generator>;

const combine = (
  primary: GeneratorShape,
  cache: AnswerCache["Service"],
  options: CacheOptions,
): GeneratorShape => {
  const tell = (outcome: CacheOutcome) => Effect.sync(() => options.onCache?.(outcome));
  const remember = (keys: { exact: string; loose: string }, answer: Answer) =>
    Effect.andThen(cache.set(keys.exact, answer), cache.set(keys.loose, answer));
  const rescue = (keys: { loose: string }, error: GenerationFailed) =>
    Effect.flatMap(cache.get(keys.loose), (found) =>
      found === undefined ? Effect.fail(error) : Effect.as(tell("rescued"), found),
    );
  return Generator.of({
    name: `${primary.name} (cached)`,
    judgesRelevance: primary.judgesRelevance,
    translate: primary.translate,
    generate: (input) => {
      const keys = cacheKeys(input);
      if (keys === undefined) return primary.generate(input);
      return Effect.flatMap(cache.get(keys.exact), (found) =>
        found !== undefined
          ? Effect.as(tell("hit"), found)
          : primary.generate(input).pipe(
              Effect.tap((answer) => Effect.andThen(remember(keys, answer), tell("miss"))),
              Effect.catchTag("GenerationFailed", (error) => rescue(keys, error)),
            ),
      );
    },
    stream: (input) => {
      const keys = cacheKeys(input);
      if (keys === undefined) return primary.stream(input);
      return Stream.unwrap(
        Effect.map(cache.get(keys.exact), (found) => {
          if (found !== undefined)
            return Stream.concat(Stream.fromEffect(tell("hit")).pipe(Stream.drain), asStream(found));
          let started = false;
          return primary.stream(input).pipe(
            Stream.tap((event) =>
              Effect.suspend(() => {
                started = true;
                return event.type === "done"
                  ? Effect.andThen(remember(keys, event.answer), tell("miss"))
                  : Effect.void;
              }),
            ),
            // Once text went out, another answer cannot be spliced in: only a silent failure is rescued.
            Stream.catchTag("GenerationFailed", (error) =>
              started ? Stream.fail(error) : Stream.unwrap(Effect.map(rescue(keys, error), asStream)),
            ),
          );
        }),
      );
    },
  });
};

/** The primary generator with the answer cache in front of it (needs an AnswerCache). */
export const withCache = <E, R>(
  primary: Layer.Layer<Generator, E, R>,
  options: CacheOptions = {},
): Layer.Layer<Generator, E, R | AnswerCache> =>
  Layer.effect(
    Generator,
    Effect.gen(function* () {
      const inner = Context.get(yield* Layer.build(primary), Generator);
      return combine(inner, yield* AnswerCache, options);
    }),
  );
