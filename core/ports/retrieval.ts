import { Context, type Effect, Schema } from "effect";

/** One passage of the docs, as indexed. */
export interface DocChunk {
  readonly id: string;
  readonly text: string;
  /** Document title. */
  readonly title: string;
  /** Heading path inside the document, e.g. "File system > Promises API > fsPromises.writeFile". */
  readonly heading: string;
  /** Source path of the document, relative to the ingested root. */
  readonly source: string;
  /** Public URL (with anchor when known), or "" when no base URL was given. */
  readonly url: string;
}

export interface RetrievedChunk extends DocChunk {
  /** Higher is better; comparable only within one result list. */
  readonly score: number;
}

export class RetrievalFailed extends Schema.TaggedError<RetrievalFailed>()("RetrievalFailed", {
  message: Schema.String,
}) {}

export class EmbeddingFailed extends Schema.TaggedError<EmbeddingFailed>()("EmbeddingFailed", {
  message: Schema.String,
}) {}

/** Turns texts into vectors of `dimensions` numbers. */
export class Embedder extends Context.Service<
  Embedder,
  {
    readonly name: string;
    readonly dimensions: number;
    readonly embed: (
      texts: ReadonlyArray<string>,
    ) => Effect.Effect<ReadonlyArray<Float32Array>, EmbeddingFailed>;
  }
>()("core/Embedder") {}

/** Finds the best passages for a question. */
export class Retriever extends Context.Service<
  Retriever,
  {
    readonly retrieve: (
      question: string,
      k: number,
    ) => Effect.Effect<ReadonlyArray<RetrievedChunk>, RetrievalFailed>;
    readonly ping: Effect.Effect<void, RetrievalFailed>;
  }
>()("core/Retriever") {}

/** A chunk ready to be written to an index: content hash (to skip unchanged ones) and vector. */
export interface IndexedChunk extends DocChunk {
  readonly hash: string;
  readonly vector: Float32Array;
}

/** Write side of an index, used by ingestion; `persist` makes the writes durable. */
export class ChunkIndex extends Context.Service<
  ChunkIndex,
  {
    /** Every stored chunk id with its content hash. */
    readonly existing: Effect.Effect<ReadonlyMap<string, string>, RetrievalFailed>;
    readonly upsert: (chunks: ReadonlyArray<IndexedChunk>) => Effect.Effect<void, RetrievalFailed>;
    readonly remove: (ids: ReadonlyArray<string>) => Effect.Effect<void, RetrievalFailed>;
    readonly persist: Effect.Effect<void, RetrievalFailed>;
  }
>()("core/ChunkIndex") {}
