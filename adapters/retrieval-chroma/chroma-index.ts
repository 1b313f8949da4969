/**
 * The write side of the Chroma index (ChunkIndex). We pass our own vectors, so the collection
 * has no embedding function; it uses cosine distance and records the embedder's name, so a
 * collection built with another embedder is refused instead of silently mixing vectors.
 */
import type { Collection } from "chromadb";
import { Array as Arr, Effect, Layer } from "effect";
import { ChunkIndex, Embedder, type IndexedChunk } from "../../core/ports/retrieval.ts";
import {
  type ChromaOptions,
  type ChunkMetadata,
  checkCollectionName,
  checkEmbedder,
  chromaCall,
  makeClient,
} from "./client.ts";

export interface ChromaIndexOptions extends ChromaOptions {
  /** Delete the collection first. */
  readonly rebuild?: boolean;
}

const BATCH = 500;

const metadataOf = (chunk: IndexedChunk): ChunkMetadata => ({
  title: chunk.title,
  heading: chunk.heading,
  source: chunk.source,
  url: chunk.url,
  hash: chunk.hash,
});

const existingHashes = (options: ChromaOptions, collection: Collection) =>
  Effect.gen(function* () {
    const hashes = new Map<string, string>();
    for (let offset = 0; ; offset += BATCH) {
      const page = yield* chromaCall(options, "listing chunks", () =>
        collection.get({ include: ["metadatas"], limit: BATCH, offset }),
      );
      page.ids.forEach((id, i) => {
        const hash = page.metadatas[i]?.hash;
        hashes.set(id, typeof hash === "string" ? hash : "");
      });
      if (page.ids.length < BATCH) return hashes;
    }
  });

/** Builds the ChunkIndex over the collection, creating it when missing. */
export const make = Effect.fn("ChromaIndex.make")(function* (options: ChromaIndexOptions) {
  const embedder = yield* Embedder;
  const name = yield* checkCollectionName(options.collection);
  const client = makeClient(options);
  if (options.rebuild === true) {
    const names = yield* chromaCall(options, "listing collections", () =>
      client.listCollections({ limit: 100_000 }),
    );
    if (names.some((collection) => collection.name === name))
      yield* chromaCall(options, `deleting collection ${name}`, () => client.deleteCollection({ name }));
  }
  const collection = yield* chromaCall(options, `opening collection ${name}`, () =>
    client.getOrCreateCollection({
      name,
      embeddingFunction: null,
      configuration: { hnsw: { space: "cosine" } },
      metadata: { embedder: embedder.name, dimensions: embedder.dimensions },
    }),
  );
  yield* checkEmbedder(collection, embedder.name, "ingest with --rebuild or use another VECTOR_INDEX_NAME");
  return ChunkIndex.of({
    existing: existingHashes(options, collection),
    upsert: (chunks) =>
      Effect.forEach(
        Arr.chunksOf(chunks, BATCH),
        (batch) =>
          chromaCall(options, "upserting chunks", () =>
            collection.upsert({
              ids: batch.map((chunk) => chunk.id),
              embeddings: batch.map((chunk) => Array.from(chunk.vector)),
              metadatas: batch.map(metadataOf),
              documents: batch.map((chunk) => chunk.text),
            }),
          ),
        { discard: true },
      ),
    remove: (ids) =>
      Effect.forEach(
        Arr.chunksOf(ids, BATCH),
        (batch) => chromaCall(options, "deleting chunks", () => collection.delete({ ids: [...batch] })),
        { discard: true },
      ),
    // Chroma persists every write itself.
    persist: Effect.void,
  });
});

/** ChunkIndex over a Chroma collection; needs the Embedder whose vectors it stores. */
export const layer = (options: ChromaIndexOptions) => Layer.effect(ChunkIndex, make(options));
