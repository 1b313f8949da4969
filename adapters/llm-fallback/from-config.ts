/** Picks the generator from the configuration: Groq with an extractive fallback, or extractive alone. */
import type { Layer } from "effect";
import type { AppConfig } from "../../core/config.ts";
import type { Generator } from "../../core/ports/generator.ts";
import * as ExtractiveGenerator from "../llm-extractive/index.ts";
import * as GroqGenerator from "../llm-groq/index.ts";
import { type FallbackOptions, withFallback } from "./with-fallback.ts";

export interface GeneratorSettings extends FallbackOptions {
  /** Per LLM call; default 10 s. */
  readonly timeoutMs?: number | undefined;
}

/** Groq (LLM_API_KEY set) falling back to extractive answers; without a key, extractive only. */
export const generatorLayerFromConfig = (
  config: Pick<AppConfig, "llm">,
  settings: GeneratorSettings = {},
): Layer.Layer<Generator> =>
  config.llm === undefined
    ? ExtractiveGenerator.layer
    : withFallback(
        GroqGenerator.layer({
          apiKey: config.llm.apiKey,
          model: config.llm.model,
          baseUrl: config.llm.baseUrl,
          timeoutMs: settings.timeoutMs,
        }),
        ExtractiveGenerator.layer,
        settings,
      );
