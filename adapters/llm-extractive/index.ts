export { extractiveGenerator, layer } from "./extractive-generator.ts";
export { estimateTokens } from "./tokens.ts";
