/**
 * Incremental ingestion into a named collection: chunk every input document, compare each
 * chunk's content hash with what the index holds for that collection, embed and write only
 * new or changed chunks, and remove the collection's chunks whose file or section is gone.
 * Other collections are left alone, except the demo one (the README indexed at first start),
 * which any real ingest replaces.
 */
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { ChunkIndex, type DocChunk, Embedder, type StoredEntry } from "../../core/ports/retrieval.ts";
import { aggregatePages } from "./aggregate-pages.ts";
import type { ChunkingOptions } from "./chunker.ts";
import { chunkDocument, contentHash, indexedText, SUPPORTED_EXTENSIONS } from "./document.ts";
import { defaultCollection, findSourceFiles, readSource } from "./walk.ts";

export class IngestFailed extends Schema.TaggedError<IngestFailed>()("IngestFailed", {
  message: Schema.String,
}) {}

/** The collection the service indexes its own README into when it starts without an index. */
export const DEMO_COLLECTION = "demo";

export const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface IngestOptions {
  readonly baseUrl?: string;
  /** The set of docs these inputs replace; default the name of their common folder. */
  readonly collection?: string;
  readonly chunking?: ChunkingOptions;
  readonly batchSize?: number;
  /** Called after each embedded batch with chunks done and chunks to do. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface IngestReport {
  readonly collection: string;
  readonly files: number;
  /** Pages left out because they only repeat other pages (a single-page or print version). */
  readonly skipped: ReadonlyArray<string>;
  readonly chunks: number;
  readonly added: number;
  readonly updated: number;
  readonly removed: number;
  readonly unchanged: number;
  /** Every collection the index holds afterwards, with its chunk count. */
  readonly collections: ReadonlyArray<{ readonly name: string; readonly chunks: number }>;
}

export interface HashedChunk {
  readonly chunk: DocChunk;
  readonly hash: string;
}

/** What to write and delete so the index holds exactly `wanted` (of the collections considered). */
export const planChanges = (
  collection: string,
  existing: ReadonlyMap<string, string>,
  wanted: ReadonlyArray<HashedChunk>,
) => {
  const write = wanted.filter(({ chunk, hash }) => existing.get(chunk.id) !== hash);
  const wantedIds = new Set(wanted.map(({ chunk }) => chunk.id));
  const remove = [...existing.keys()].filter((id) => !wantedIds.has(id));
  const added = write.filter(({ chunk }) => !existing.has(chunk.id)).length;
  return {
    collection,
    write,
    remove,
    added,
    updated: write.length - added,
    unchanged: wanted.length - write.length,
  };
};

/** The collection's entries (and the demo's), as id -> hash. */
export const entriesOf = (existing: ReadonlyMap<string, StoredEntry>, collection: string) =>
  new Map(
    [...existing]
      .filter(([, entry]) => entry.collection === collection || entry.collection === DEMO_COLLECTION)
      .map(([id, entry]) => [id, entry.hash]),
  );

const failure = (cause: unknown) =>
  new IngestFailed({ message: cause instanceof Error ? cause.message : String(cause) });

const readChunks = (inputs: ReadonlyArray<string>, collection: string, options: IngestOptions) =>
  Effect.try({
    try: () => {
      const files = findSourceFiles(inputs);
      if (files.length === 0)
        throw new Error(
          `no ${SUPPORTED_EXTENSIONS.join(", ")} files (or .gz of them) in ${inputs.join(", ") || "(no inputs)"}`,
        );
      const seen = new Map<string, string>();
      for (const file of files) {
        const owner = seen.get(file.source);
        if (owner !== undefined)
          throw new Error(`${owner} and ${file.path} both give the source "${file.source}"`);
        seen.set(file.source, file.path);
      }
      const pages = files.map((file) =>
        chunkDocument(file.source, readSource(file), options.baseUrl, options.chunking),
      );
      const repeats = aggregatePages(pages.map((chunks) => chunks.map((chunk) => chunk.text).join("\n")));
      const chunks = pages.flatMap((page, i) =>
        repeats.has(i) ? [] : page.map((chunk) => ({ ...chunk, id: `${collection}/${chunk.id}` })),
      );
      const skipped = files.filter((_, i) => repeats.has(i)).map((file) => file.source);
      return { files: files.length - skipped.length, chunks, skipped };
    },
    catch: failure,
  });

/** The collection name to use, checked. */
export const collectionFor = (inputs: ReadonlyArray<string>, name: string | undefined) =>
  Effect.try({ try: () => name ?? defaultCollection(inputs), catch: failure }).pipe(
    Effect.filterOrFail(
      (chosen) => COLLECTION_NAME.test(chosen),
      (chosen) =>
        new IngestFailed({
          message: `collection name "${chosen}" must be 1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit`,
        }),
    ),
  );

/** Embeds and writes the plan's chunks in batches, removes its gone ones, and persists (a new index version). */
export const writeChanges = Effect.fn("ingest.writeChanges")(function* (
  plan: ReturnType<typeof planChanges>,
  options: Pick<IngestOptions, "batchSize" | "onProgress">,
) {
  const embedder = yield* Embedder;
  const index = yield* ChunkIndex;
  const batchSize = options.batchSize ?? 64;
  for (let start = 0; start < plan.write.length; start += batchSize) {
    const batch = plan.write.slice(start, start + batchSize);
    const vectors = yield* embedder.embed(batch.map(({ chunk }) => indexedText(chunk)));
    yield* index.upsert(
      batch.map(({ chunk, hash }, i) => ({
        ...chunk,
        collection: plan.collection,
        hash,
        vector: vectors[i]!,
      })),
    );
    options.onProgress?.(start + batch.length, plan.write.length);
  }
  if (plan.remove.length > 0) yield* index.remove(plan.remove);
  yield* index.persist;
});

/** Every collection the index holds, with its chunk count. */
export const collectionsOf = Effect.gen(function* () {
  const tally = new Map<string, number>();
  for (const entry of (yield* (yield* ChunkIndex).existing).values())
    tally.set(entry.collection, (tally.get(entry.collection) ?? 0) + 1);
  return [...tally].sort().map(([name, chunks]) => ({ name, chunks }));
});

/** Brings the collection in the configured index in line with the documents under `inputs`. */
export const ingest = Effect.fn("ingest")(function* (
  inputs: ReadonlyArray<string>,
  options: IngestOptions = {},
) {
  const collection = yield* collectionFor(inputs, options.collection);
  const { files, chunks, skipped } = yield* readChunks(inputs, collection, options);
  const embedder = yield* Embedder;
  const index = yield* ChunkIndex;
  // The embedder's name is part of the hash: switching models re-embeds everything.
  const wanted = chunks.map((chunk) => ({ chunk, hash: contentHash(chunk, embedder.name) }));
  const plan = planChanges(collection, entriesOf(yield* index.existing, collection), wanted);
  yield* writeChanges(plan, options);
  const collections = yield* collectionsOf;
  return {
    collection,
    files,
    skipped,
    chunks: chunks.length,
    added: plan.added,
    updated: plan.updated,
    removed: plan.remove.length,
    unchanged: plan.unchanged,
    collections,
  } satisfies IngestReport;
});
