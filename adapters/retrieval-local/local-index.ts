/**
 * The write side of the local index (ChunkIndex): the file is loaded once, changed in memory
 * and written back by `persist`. An index built with another embedder (or `rebuild: true`)
 * starts empty, because its vectors cannot be compared with the new ones.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { ChunkIndex, Embedder, type IndexedChunk, RetrievalFailed } from "../../core/ports/retrieval.ts";
import {
  buildIndexData,
  type IndexData,
  readIndexFile,
  type StoredChunk,
  writeIndexFile,
} from "./index-file.ts";
import { quantizeRows, rowVector } from "./vectors.ts";

export interface LocalIndexOptions {
  readonly indexPath: string;
  readonly rebuild?: boolean;
  /** The docs' language (ISO 639-1); undefined: detected from the docs at each write. */
  readonly language?: string | undefined;
}

interface Entry {
  readonly chunk: StoredChunk;
  readonly vector: Float32Array;
}

const entriesOf = (data: IndexData): Map<string, Entry> =>
  new Map(
    Array.from({ length: data.count }, (_, i) => {
      const chunk = data.chunk(i);
      return [chunk.id, { chunk, vector: rowVector(data.vectors, i) }] as const;
    }),
  );

const stored = ({ vector: _vector, ...chunk }: IndexedChunk): StoredChunk => chunk;

/** Builds the ChunkIndex over the file at `indexPath`. */
export const make = Effect.fn("LocalIndex.make")(function* (options: LocalIndexOptions) {
  const embedder = yield* Embedder;
  const loaded =
    options.rebuild === true
      ? undefined
      : yield* readIndexFile(options.indexPath).pipe(
          Effect.mapError(
            (error) =>
              new RetrievalFailed({ message: `${error.message} (ingest with --rebuild to start over)` }),
          ),
        );
  const entries =
    loaded !== undefined && loaded.embedder === embedder.name && loaded.dimensions === embedder.dimensions
      ? entriesOf(loaded)
      : new Map<string, Entry>();
  // A rebuilt or re-modelled index must be written even when no chunk changed.
  let dirty =
    loaded === undefined ||
    entries.size === 0 ||
    (options.language !== undefined && loaded.lexical.language !== options.language);
  return ChunkIndex.of({
    existing: Effect.sync(
      () =>
        new Map(
          [...entries].map(
            ([id, { chunk }]) => [id, { collection: chunk.collection, hash: chunk.hash }] as const,
          ),
        ),
    ),
    upsert: (chunks) =>
      Effect.suspend(() => {
        const wrong = chunks.find((chunk) => chunk.vector.length !== embedder.dimensions);
        if (wrong !== undefined)
          return Effect.fail(
            new RetrievalFailed({
              message: `chunk ${wrong.id} has ${wrong.vector.length} dimensions, the index ${embedder.dimensions}`,
            }),
          );
        for (const chunk of chunks) entries.set(chunk.id, { chunk: stored(chunk), vector: chunk.vector });
        dirty ||= chunks.length > 0;
        return Effect.void;
      }),
    remove: (ids) =>
      Effect.sync(() => {
        for (const id of ids) dirty = entries.delete(id) || dirty;
      }),
    persist: Effect.suspend(() => {
      if (!dirty) return Effect.void;
      const list = [...entries.values()];
      const data = buildIndexData(
        embedder.name,
        embedder.dimensions,
        list.map((entry) => entry.chunk),
        quantizeRows(
          list.map((entry) => entry.vector),
          embedder.dimensions,
        ),
        options.language,
      );
      return writeIndexFile(options.indexPath, data).pipe(
        Effect.andThen(
          Effect.sync(() => {
            dirty = false;
          }),
        ),
      );
    }),
  });
});

/** ChunkIndex over a local index file; needs an Embedder (its name and size are stored). */
export const layer = (options: LocalIndexOptions) => Layer.effect(ChunkIndex, make(options));
