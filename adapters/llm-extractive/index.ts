export { compose, extractiveGenerator, layer } from "./extractive-generator.ts";
export { CHARS_PER_TOKEN, estimateTokens } from "./tokens.ts";
