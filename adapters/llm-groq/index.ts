export { type GroqOptions, layer, make } from "./groq-generator.ts";
export { buildMessages, PROMPT_LIMITS, systemPrompt } from "./prompt.ts";
export { DEFAULT_RETRY, type RetryPolicy } from "./retry.ts";
