/**
 * Second-stage lexical re-ranking for a vector store that only does nearest neighbours
 * (Chroma): BM25F over the candidates alone, fused with their vector order. Term rarity
 * among the candidates is enough to lift the passage that names the rare word of the
 * question ("HMAC") above passages that only share its common words ("message").
 */
import type { DocChunk } from "../../../core/ports/retrieval.ts";
import { reciprocalRankFusion } from "./fusion.ts";
import { buildLexical } from "./lexical.ts";

/** Candidates (best first by vector) re-ordered by fusion with BM25F; at most `k`, with fused scores. */
export const rerankWithLexical = <C extends DocChunk>(
  question: string,
  candidates: ReadonlyArray<C>,
  k: number,
): ReadonlyArray<readonly [C, number]> => {
  const lexical = buildLexical(candidates).search(question, candidates.length);
  const byVector = candidates.map((_, i) => i);
  return reciprocalRankFusion([
    { ranked: byVector, weight: 1 },
    { ranked: lexical, weight: 1 },
  ])
    .slice(0, Math.max(0, Math.floor(k)))
    .map(([i, score]) => [candidates[i]!, score] as const);
};
