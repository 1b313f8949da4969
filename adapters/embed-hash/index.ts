/** The download-free embedder: `HashEmbedder.layer` (feature-hashed lexical vectors). */

export * as HashEmbedder from "./hash-embedder.ts";
