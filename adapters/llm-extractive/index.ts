export { extractiveGenerator, layer } from "./extractive-generator.ts";
