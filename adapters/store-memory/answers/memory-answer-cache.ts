/**
 * The answer cache in process memory: at most `maxEntries` answers, the least recently used
 * one dropped first (a Map keeps insertion order; a hit moves its entry to the end).
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { AnswerCache } from "../../../core/ports/answer-cache.ts";
import type { Answer } from "../../../core/ports/generator.ts";

export const DEFAULT_MAX_ENTRIES = 1000;

/** A bounded LRU cache of answers. */
export const make = (maxEntries: number = DEFAULT_MAX_ENTRIES): AnswerCache["Service"] => {
  const entries = new Map<string, Answer>();
  return AnswerCache.of({
    get: (key) =>
      Effect.sync(() => {
        const answer = entries.get(key);
        if (answer !== undefined) {
          entries.delete(key);
          entries.set(key, answer);
        }
        return answer;
      }),
    set: (key, answer) =>
      Effect.sync(() => {
        entries.delete(key);
        entries.set(key, answer);
        while (entries.size > Math.max(0, maxEntries)) entries.delete(entries.keys().next().value!);
      }),
  });
};

/** The memory answer cache as a layer. */
export const layer = (maxEntries: number = DEFAULT_MAX_ENTRIES) =>
  Layer.sync(AnswerCache, () => make(maxEntries));
