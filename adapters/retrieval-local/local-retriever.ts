/**
 * The embedded default retriever: no server. At start it loads the index file written by
 * ingest, builds a BM25 index over the chunks, and answers each question by fusing the BM25
 * ranking with the vector ranking (reciprocal rank fusion).
 */
import { Effect, Layer } from "effect";
import { Embedder, RetrievalFailed, type RetrievedChunk, Retriever } from "../../core/ports/retrieval.ts";
import { questionVector } from "../shared/question-vector.ts";
import type { Bm25Params } from "../shared/ranking/bm25.ts";
import { reciprocalRankFusion } from "../shared/ranking/fusion.ts";
import { buildLexical, CHUNK_BM25 } from "../shared/ranking/lexical.ts";
import { type IndexData, readIndexFile } from "./index-file.ts";
import { nearest } from "./vectors.ts";

export interface LocalRetrieverOptions {
  readonly indexPath: string;
}

interface SearchTuning {
  readonly bm25: Bm25Params;
  /** How many candidates each ranking contributes to the fusion. */
  readonly candidates: number;
  readonly lexicalWeight: number;
  readonly vectorWeight: number;
}

const TUNING: SearchTuning = {
  bm25: CHUNK_BM25,
  candidates: 50,
  lexicalWeight: 1,
  vectorWeight: 1,
};

/** The Retriever over already-loaded index data. */
const fromIndexData = (data: IndexData, embedder: Embedder["Service"]): Retriever["Service"] => {
  const lexical = buildLexical(data.chunks, TUNING.bm25);
  const retrieve = Effect.fn("LocalRetriever.retrieve")(function* (question: string, k: number) {
    const asked = yield* questionVector(embedder, question, k);
    if (asked === undefined) return [];
    const { limit, vector } = asked;
    const byVector = nearest(data.vectors, vector, TUNING.candidates);
    const fused = reciprocalRankFusion([
      { ranked: lexical.search(question, TUNING.candidates), weight: TUNING.lexicalWeight },
      { ranked: byVector.map(([row]) => row), weight: TUNING.vectorWeight },
    ]);
    return fused.slice(0, limit).map(([row, score]): RetrievedChunk => {
      const { hash: _hash, ...chunk } = data.chunks[row]!;
      return { ...chunk, score };
    });
  });
  return { retrieve, ping: Effect.void };
};

/** Loads the index file and checks that it was built with the same embedder. */
const loadIndex = Effect.fn("LocalRetriever.load")(function* (
  indexPath: string,
  embedder: Embedder["Service"],
) {
  const data = yield* readIndexFile(indexPath);
  if (data === undefined)
    return yield* new RetrievalFailed({
      message: `no index at ${indexPath}: run \`npm run ingest -- <docs folder>\` first (or set INDEX_PATH)`,
    });
  if (data.embedder !== embedder.name || data.dimensions !== embedder.dimensions)
    return yield* new RetrievalFailed({
      message: `${indexPath} was built with embedder ${data.embedder} (${data.dimensions} dimensions) but ${embedder.name} (${embedder.dimensions}) is configured: re-run ingest`,
    });
  return data;
});

/** Retriever over the local index file at `indexPath`; needs the Embedder that built it. */
export const layer = (options: LocalRetrieverOptions) =>
  Layer.effect(
    Retriever,
    Effect.gen(function* () {
      const embedder = yield* Embedder;
      return fromIndexData(yield* loadIndex(options.indexPath, embedder), embedder);
    }),
  );
