export type { RetryPolicy } from "../shared/retry.ts";
export { DEFAULT_RETRY, type GroqOptions, layer, make } from "./groq-generator.ts";
export { buildMessages, PROMPT_LIMITS, systemPrompt } from "./prompt.ts";
