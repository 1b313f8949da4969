import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import type { RelevanceEvidence } from "../answers/relevance.ts";

/** One passage of the docs, as indexed. */
export interface DocChunk {
  readonly id: string;
  readonly text: string;
  /** Document title. */
  readonly title: string;
  /** Heading path below the title, e.g. "Promises API > fsPromises.writeFile" ("" at the top of a page). */
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

/**
 * The index could not answer. `retryAfterMs` is set when it was not even loaded: the budget of
 * cold index loads (cold-index-loads and cold-index-loads-per-client, core/ceilings/ceilings.ts)
 * is spent until then.
 */
export class RetrievalFailed extends Schema.TaggedError<RetrievalFailed>()("RetrievalFailed", {
  message: Schema.String,
  retryAfterMs: Schema.optional(Schema.Number),
}) {}

export class EmbeddingFailed extends Schema.TaggedError<EmbeddingFailed>()("EmbeddingFailed", {
  message: Schema.String,
}) {}

/**
 * Who a retrieval is for, so that loading an index not held in memory is charged to someone: a
 * question (already holding a query of the client's) may spend the whole cold-load budget, a free
 * listing only while plenty is left. Unset: a free use by nobody in particular (the CLI, a test).
 */
export interface RetrievalAsker {
  /** The client identity (an IP, IPv6 per /64), when a client asks. */
  readonly client: string | undefined;
  readonly question: boolean;
}

export const RetrievalAsker = Context.Reference<RetrievalAsker>("core/RetrievalAsker", {
  defaultValue: () => ({ client: undefined, question: false }),
});

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

/** The best passages for a question, with how well they cover it and which index gave them. */
export interface Retrieval {
  readonly chunks: ReadonlyArray<RetrievedChunk>;
  readonly evidence: RelevanceEvidence;
  /** Changes whenever the indexed docs change (a finished ingest), so cached answers can be told apart. */
  readonly indexVersion: string;
  /** The docs' language (ISO 639-1), as their index was analysed. */
  readonly language: string;
  /** The question's language: the docs' own unless it is clearly written in another. */
  readonly questionLanguage: string;
}

/** A passage as listed from the index, with the named set of docs it belongs to. */
export interface ListedChunk extends DocChunk {
  readonly collection: string;
}

/** Every passage of the index in the order the index keeps them, and the index's version. */
export interface IndexListing {
  readonly version: string;
  readonly chunks: ReadonlyArray<ListedChunk>;
}

/** Finds the best passages for a question; lists what the index holds. */
export class Retriever extends Context.Service<
  Retriever,
  {
    readonly retrieve: (question: string, k: number) => Effect.Effect<Retrieval, RetrievalFailed>;
    /**
     * The whole index as it is now (the same value until the next re-index, so a caller can
     * key what it derives on `version`).
     */
    readonly listing: Effect.Effect<IndexListing, RetrievalFailed>;
    readonly ping: Effect.Effect<void, RetrievalFailed>;
  }
>()("core/Retriever") {}

/** What the index keeps about a stored chunk besides its passage: which docs it belongs to, its content hash. */
export interface StoredEntry {
  /** The named set of docs (`npm run ingest -- --source NAME`) the chunk belongs to. */
  readonly collection: string;
  /** Content hash, to skip unchanged chunks on re-ingest. */
  readonly hash: string;
}

/** A chunk ready to be written to an index, with its vector. */
export interface IndexedChunk extends DocChunk, StoredEntry {
  readonly vector: Float32Array;
}

/**
 * Write side of an index, used by ingestion; `persist` makes the writes durable and visible to
 * running services at once (a new index version).
 */
export class ChunkIndex extends Context.Service<
  ChunkIndex,
  {
    /** Every stored chunk id with its collection and content hash. */
    readonly existing: Effect.Effect<ReadonlyMap<string, StoredEntry>, RetrievalFailed>;
    readonly upsert: (chunks: ReadonlyArray<IndexedChunk>) => Effect.Effect<void, RetrievalFailed>;
    readonly remove: (ids: ReadonlyArray<string>) => Effect.Effect<void, RetrievalFailed>;
    readonly persist: Effect.Effect<void, RetrievalFailed>;
  }
>()("core/ChunkIndex") {}
