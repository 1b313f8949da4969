/** A real sentence-embedding model through @huggingface/transformers: `TransformersEmbedder.layer({ model })`. */
export * as TransformersEmbedder from "./transformers-embedder.ts";
