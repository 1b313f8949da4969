/** The download-free embedder: `HashEmbedder.layer` (feature-hashed lexical vectors). */

export { terms, tokens } from "./analyze.ts";
export * as HashEmbedder from "./hash-embedder.ts";
