/**
 * Retriever over a Chroma collection filled by ingest: embed the question with our Embedder,
 * ask Chroma for the nearest records (cosine), then re-rank those candidates by fusing their
 * vector order with BM25F over the candidates (Chroma's own server has no lexical ranking).
 * The collection is opened on first use and kept, so the service starts even while Chroma is
 * briefly down; each call retries transient failures before giving up.
 */
import type { Collection } from "chromadb";
import { Effect, Layer } from "effect";
import { type DocChunk, Embedder, type RetrievedChunk, Retriever } from "../../core/ports/retrieval.ts";
import { questionVector } from "../shared/question-vector.ts";
import { rerankWithLexical } from "../shared/ranking/rerank.ts";
import {
  type ChromaOptions,
  checkCollectionName,
  checkEmbedder,
  chromaCall,
  makeClient,
  openCollection,
} from "./client.ts";

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** How many nearest records are re-ranked (0 turns re-ranking off: pure vector order). */
export const DEFAULT_CANDIDATES = 50;

export interface ChromaRetrieverOptions extends ChromaOptions {
  readonly candidates?: number;
}

/** Builds the Retriever without contacting Chroma; fails at once only on a malformed collection name. */
export const make = Effect.fn("ChromaRetriever.make")(function* (options: ChromaRetrieverOptions) {
  const candidates = options.candidates ?? DEFAULT_CANDIDATES;
  yield* checkCollectionName(options.collection);
  const embedder = yield* Embedder;
  const client = makeClient(options);
  let opened: Collection | undefined;
  const collection = Effect.suspend(() =>
    opened !== undefined
      ? Effect.succeed(opened)
      : openCollection(client, options).pipe(
          Effect.flatMap((found) => checkEmbedder(found, embedder.name, "re-run ingest")),
          Effect.tap((found) =>
            Effect.sync(() => {
              opened = found;
            }),
          ),
        ),
  );
  const retrieve = Effect.fn("ChromaRetriever.retrieve")(function* (question: string, k: number) {
    const asked = yield* questionVector(embedder, question, k);
    if (asked === undefined) return [];
    const { limit, vector } = asked;
    const found = yield* collection;
    const result = yield* chromaCall(options, "query", () =>
      found.query({
        queryEmbeddings: [Array.from(vector)],
        nResults: Math.max(limit, candidates),
        include: ["documents", "metadatas", "distances"],
      }),
    );
    const rows = result.rows()[0] ?? [];
    const chunks = rows.map(
      (row): DocChunk => ({
        id: row.id,
        text: row.document ?? "",
        title: text(row.metadata?.title),
        heading: text(row.metadata?.heading),
        source: text(row.metadata?.source),
        url: text(row.metadata?.url),
      }),
    );
    if (candidates === 0)
      return chunks
        .slice(0, limit)
        .map((chunk, i): RetrievedChunk => ({ ...chunk, score: 1 - (rows[i]?.distance ?? 1) }));
    return rerankWithLexical(question, chunks, limit).map(
      ([chunk, score]): RetrievedChunk => ({ ...chunk, score }),
    );
  });
  return Retriever.of({
    retrieve,
    // Readiness asks once, without retries, and opens the collection: a missing one is named.
    ping: Effect.asVoid(openCollection(client, { ...options, retries: 0 })),
  });
});

/** Retriever over the Chroma collection; needs the Embedder that filled it. */
export const layer = (options: ChromaRetrieverOptions) => Layer.effect(Retriever, make(options));
