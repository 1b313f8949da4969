/** Reading the provider's replies without trusting their shape. */
import * as Effect from "effect/Effect";
import { malformed, type ProviderFailure } from "./provider-failure.ts";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** `total_tokens` of a usage object, or prompt + completion tokens, or undefined. */
export const readUsage = (usage: unknown): number | undefined => {
  if (!isRecord(usage)) return undefined;
  const { total_tokens: total, prompt_tokens: prompt, completion_tokens: completion } = usage;
  if (typeof total === "number" && Number.isFinite(total) && total >= 0) return total;
  if (typeof prompt === "number" && typeof completion === "number") return prompt + completion;
  return undefined;
};

/** The answer text and token count of a non-streaming completion. */
export const readCompletion = (
  completion: unknown,
): Effect.Effect<{ readonly text: string; readonly tokensUsed: number | undefined }, ProviderFailure> => {
  // A non-JSON body reaches us as a string; a JSON one may still lack the fields we need.
  if (!isRecord(completion) || !Array.isArray(completion.choices))
    return Effect.fail(malformed("a reply that is not a chat completion"));
  const first: unknown = completion.choices[0];
  const message = isRecord(first) ? first.message : undefined;
  const text = isRecord(message) ? message.content : undefined;
  if (typeof text !== "string" || text.trim() === "") return Effect.fail(malformed("an empty answer"));
  const xGroq = completion.x_groq;
  return Effect.succeed({
    text,
    tokensUsed: readUsage(completion.usage) ?? readUsage(isRecord(xGroq) ? xGroq.usage : undefined),
  });
};
