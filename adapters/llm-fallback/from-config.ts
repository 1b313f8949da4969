/**
 * Picks the generator from the configuration: Groq behind the answer cache, falling back to
 * extractive answers; or extractive alone (nothing to save by caching a few milliseconds of
 * local work).
 */
import { Layer } from "effect";
import type { AppConfig } from "../../core/config.ts";
import type { AnswerCache } from "../../core/ports/answer-cache.ts";
import type { Generator } from "../../core/ports/generator.ts";
import * as ExtractiveGenerator from "../llm-extractive/index.ts";
import * as GroqGenerator from "../llm-groq/index.ts";
import { MemoryAnswerCache } from "../store-memory/index.ts";
import { type CacheOptions, withCache } from "./with-cache.ts";
import { type FallbackOptions, withFallback } from "./with-fallback.ts";

export interface GeneratorSettings extends FallbackOptions, CacheOptions {
  /** Per LLM call; default 10 s. */
  readonly timeoutMs?: number | undefined;
  /** Where answers are kept (default: a bounded cache in this process). */
  readonly cache?: Layer.Layer<AnswerCache> | undefined;
}

/** Groq (LLM_API_KEY set), cached, falling back to extractive answers; without a key, extractive only. */
export const generatorLayerFromConfig = (
  config: Pick<AppConfig, "llm">,
  settings: GeneratorSettings = {},
): Layer.Layer<Generator> =>
  config.llm === undefined
    ? ExtractiveGenerator.layer
    : withFallback(
        withCache(
          GroqGenerator.layer({
            apiKey: config.llm.apiKey,
            model: config.llm.model,
            baseUrl: config.llm.baseUrl,
            timeoutMs: settings.timeoutMs,
          }),
          settings,
        ),
        ExtractiveGenerator.layer,
        settings,
      ).pipe(Layer.provide(settings.cache ?? MemoryAnswerCache.layer()));
