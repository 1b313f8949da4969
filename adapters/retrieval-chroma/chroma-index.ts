/**
 * The write side of the Chroma index (ChunkIndex). We pass our own vectors, so the collection
 * has no embedding function; it uses cosine distance and records the embedder's name, so a
 * collection built with another embedder is refused instead of silently mixing vectors.
 * `persist` writes a new index version (a hash of every chunk id and content hash) into the
 * collection's metadata: that is how running services learn that an ingest has finished.
 */
import { createHash } from "node:crypto";
import type { Collection } from "chromadb";
import * as Arr from "effect/Array";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { ChunkIndex, Embedder, type IndexedChunk, type StoredEntry } from "../../core/ports/retrieval.ts";
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
  collection: chunk.collection,
});

const text = (value: unknown): string => (typeof value === "string" ? value : "");

const storedEntries = (options: ChromaOptions, collection: Collection) =>
  Effect.gen(function* () {
    const entries = new Map<string, StoredEntry>();
    for (let offset = 0; ; offset += BATCH) {
      const page = yield* chromaCall(options, "listing chunks", () =>
        collection.get({ include: ["metadatas"], limit: BATCH, offset }),
      );
      page.ids.forEach((id, i) => {
        const metadata = page.metadatas[i];
        entries.set(id, { collection: text(metadata?.collection), hash: text(metadata?.hash) });
      });
      if (page.ids.length < BATCH) return entries;
    }
  });

/** The index version: equal for equal contents, whatever order they were written in. */
export const versionOf = (embedder: string, entries: ReadonlyMap<string, StoredEntry>): string => {
  const digest = createHash("sha1").update(embedder);
  for (const id of [...entries.keys()].sort()) digest.update(`${id}\n${entries.get(id)!.hash}\n`);
  return digest.digest("hex").slice(0, 16);
};

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
      // A wider search than the default keeps the approximate neighbours close to the exact ones.
      configuration: { hnsw: { space: "cosine", ef_search: 400, ef_construction: 200 } },
      metadata: { embedder: embedder.name, dimensions: embedder.dimensions },
    }),
  );
  yield* checkEmbedder(collection, embedder.name, "ingest with --rebuild or use another VECTOR_INDEX_NAME");
  // What the collection holds, kept up to date by our writes, for the version at `persist`.
  const entries = yield* storedEntries(options, collection);
  return ChunkIndex.of({
    existing: Effect.sync(() => new Map(entries)),
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
          ).pipe(
            Effect.tap(() =>
              Effect.sync(() => {
                for (const chunk of batch)
                  entries.set(chunk.id, { collection: chunk.collection, hash: chunk.hash });
              }),
            ),
          ),
        { discard: true },
      ),
    remove: (ids) =>
      Effect.forEach(
        Arr.chunksOf(ids, BATCH),
        (batch) =>
          chromaCall(options, "deleting chunks", () => collection.delete({ ids: [...batch] })).pipe(
            Effect.tap(() =>
              Effect.sync(() => {
                for (const id of batch) entries.delete(id);
              }),
            ),
          ),
        { discard: true },
      ),
    // Chroma persists every write itself; the new version tells running services to reload.
    persist: chromaCall(options, "recording the index version", () =>
      collection.modify({
        metadata: {
          embedder: embedder.name,
          dimensions: embedder.dimensions,
          version: versionOf(embedder.name, entries),
        },
      }),
    ),
  });
});

/** ChunkIndex over a Chroma collection; needs the Embedder whose vectors it stores. */
export const layer = (options: ChromaIndexOptions) => Layer.effect(ChunkIndex, make(options));
