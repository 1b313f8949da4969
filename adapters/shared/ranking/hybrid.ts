/**
 * The retrieval both indexes share (local file, and Chroma with the lexical index beside it):
 * BM25F over all chunks fused with the vector ranking by reciprocal rank, and the relevance
 * evidence for the best passages (how much of the question's idf weight they contain), which
 * core's decideRelevance turns into "answer" or "decline".
 */

import type { RelevanceEvidence } from "../../../core/answers/relevance.ts";
import type { RetrievedChunk } from "../../../core/ports/retrieval.ts";
import { type Analysis, analysisFor } from "../text-analysis/analyze.ts";
import { commonWords, questionLanguage } from "../text-analysis/languages.ts";
import type { Bm25Searcher } from "./bm25.ts";
import { RRF_K, reciprocalRankFusion } from "./fusion.ts";

/** The distinct index terms of a question, cut as the docs were (default: English). */
export const questionTerms = (
  question: string,
  analysis: Analysis = analysisFor("en"),
): ReadonlyArray<string> => [...new Set(analysis.terms(question))];

/** The docs' language and the question's (the docs' own unless clearly another). */
export const askedIn = (question: string, language: string) => ({
  language,
  questionLanguage: questionLanguage(question, language),
});

/** How many candidates each ranking contributes to the fusion. */
export const CANDIDATES = 50;

export interface HybridTuning {
  readonly lexical: number;
  readonly vector: number;
  /** Weight of the page's rank: a page whose several passages match is a better bet. */
  readonly page: number;
  /** Lexical hits pooled into page scores. */
  readonly pagePool: number;
  /** Each further passage of a page adds this share of the one before. */
  readonly pageDecay: number;
  /** At most this many of the results from one page, so the sources cover several pages... */
  readonly perPage: number;
  /** ...except the best page, which may give this many (an answer often spans two of its passages). */
  readonly leadPerPage: number;
}

export const HYBRID: HybridTuning = {
  lexical: 1,
  vector: 1,
  page: 3,
  pagePool: 300,
  pageDecay: 0.5,
  perPage: 1,
  leadPerPage: 3,
};

export interface HybridInput {
  readonly lexical: Bm25Searcher;
  readonly words: ReadonlyArray<string>;
  /** Rows nearest to the question's vector, best first. */
  readonly byVector: ReadonlyArray<number>;
  /** The page (source) a row belongs to, as any key that is equal for equal pages. */
  readonly pageOf: (row: number) => string | number;
  readonly limit: number;
}

/** Pages ranked by their pooled lexical evidence: a page's best hit, plus a decaying share of the next. */
const pageRanks = (
  hits: ReadonlyArray<readonly [number, number]>,
  pageOf: HybridInput["pageOf"],
  decay: number,
) => {
  const pages = new Map<string | number, { score: number; share: number }>();
  for (const [row, score] of hits) {
    const page = pageOf(row);
    const entry = pages.get(page);
    if (entry === undefined) pages.set(page, { score, share: decay });
    else {
      entry.score += score * entry.share;
      entry.share *= decay;
    }
  }
  const ranked = [...pages].sort((a, b) => b[1].score - a[1].score);
  return new Map(ranked.map(([page], rank) => [page, rank]));
};

/**
 * Chunks ranked by reciprocal rank fusion of three signals (their BM25F rank, their vector
 * rank, their page's rank), at most `perPage` per page; [row, score] pairs, best first.
 */
export const hybridSearch = (
  input: HybridInput,
  tuning: HybridTuning = HYBRID,
): ReadonlyArray<readonly [number, number]> => {
  const hits = input.lexical.search(input.words, Math.max(tuning.pagePool, CANDIDATES));
  const pages = pageRanks(hits, input.pageOf, tuning.pageDecay);
  const lexical = hits.map(([row]) => row);
  const bm25 = new Map(hits);
  const fused = reciprocalRankFusion([
    { ranked: lexical, weight: tuning.lexical },
    { ranked: input.byVector, weight: tuning.vector },
  ]).map(([row, score]) => {
    const rank = pages.get(input.pageOf(row));
    return [row, score + (rank === undefined ? 0 : tuning.page / (RRF_K + rank + 1))] as const;
  });
  // Rank sums tie often; the BM25 score breaks the tie, so the order does not depend on where a
  // chunk happens to be stored (the local file and a Chroma snapshot keep different orders).
  const byScores = (a: readonly [number, number], b: readonly [number, number]) =>
    b[1] - a[1] || (bm25.get(b[0]) ?? 0) - (bm25.get(a[0]) ?? 0) || a[0] - b[0];
  fused.sort(byScores);
  const taken = new Map<string | number, number>();
  const out: Array<readonly [number, number]> = [];
  const skipped: Array<readonly [number, number]> = [];
  for (const entry of fused) {
    if (out.length >= input.limit) break;
    const page = input.pageOf(entry[0]);
    const count = taken.get(page) ?? 0;
    const lead = out.length > 0 && input.pageOf(out[0]![0]) === page;
    if (count >= (lead ? tuning.leadPerPage : tuning.perPage)) skipped.push(entry);
    else {
      taken.set(page, count + 1);
      out.push(entry);
    }
  }
  // Fewer pages than results asked for: the skipped passages fill up, best first.
  return [...out, ...skipped.slice(0, Math.max(0, input.limit - out.length))].sort(byScores);
};

/** Adjacent word pairs of a text (stop words left out), as "a b" in both orders when `both`. */
const adjacentPairs = (text: string, both: boolean, analysis: Analysis): Set<string> => {
  const heads = analysis.tokens(text).map((token) => token.terms[token.terms.length - 1]!);
  const pairs = new Set<string>();
  for (let i = 1; i < heads.length; i++) {
    pairs.add(`${heads[i - 1]} ${heads[i]}`);
    if (both) pairs.add(`${heads[i]} ${heads[i - 1]}`);
  }
  return pairs;
};

/** A code such as E07, 404 or v2: letters and digits in one word. */
const CODE = /^(?=.*\p{L})(?=.*\p{N})[\p{L}\p{N}]+$/u;

/** How many of a language's most common words the breadth of a vocabulary is measured on. */
const BREADTH_WORDS = 2000;
const breadths = new WeakMap<Bm25Searcher, number>();

/**
 * The share of the language's most common content words (stemmed, stop words left out) that
 * the docs use: about 0.6 for a large manual, under 0.1 for a five-page product site. It tells
 * how likely the docs are to use an ordinary word of a question that is about them (computed
 * once per index).
 */
const vocabularyBreadth = (lexical: Bm25Searcher): number => {
  let breadth = breadths.get(lexical);
  if (breadth === undefined) {
    const stems = new Set<string>();
    let taken = 0;
    for (const word of commonWords(lexical.analysis.language)) {
      if (taken++ >= BREADTH_WORDS) break;
      for (const term of lexical.analysis.terms(word)) stems.add(term);
    }
    let used = 0;
    for (const term of stems) if (lexical.documentFrequency(term) > 0) used++;
    breadth = stems.size === 0 ? 1 : used / stems.size;
    breadths.set(lexical, breadth);
  }
  return breadth;
};

/**
 * What retrieval knows about each of the question's terms (how rare it is in the docs, whether
 * the docs use it at all, which of the results contain it) and how many of the question's
 * adjacent word pairs stand side by side in a result ("replication slot" vs "slot" here and
 * "replication" there); core/answers/relevance.ts weighs them into a decision.
 */
export const relevanceEvidence = (
  lexical: Bm25Searcher,
  asked: ReadonlyArray<string>,
  rows: ReadonlyArray<number>,
  question: string,
  passages: ReadonlyArray<{ readonly title: string; readonly heading: string; readonly text: string }>,
): RelevanceEvidence => {
  const { analysis } = lexical;
  const questionPairs = adjacentPairs(question, false, analysis);
  const found = new Set<string>();
  for (const passage of passages)
    for (const pair of adjacentPairs(`${passage.title}\n${passage.heading}\n${passage.text}`, true, analysis))
      if (questionPairs.has(pair)) found.add(pair);
  // The words as the visitor wrote them, to tell a common word of the language from a name.
  const common = commonWords(analysis.language);
  const written = new Map<string, boolean>();
  const coded = new Set<string>();
  for (const token of analysis.tokens(question))
    for (const term of token.terms) {
      written.set(term, (written.get(term) ?? false) || common.has(token.word));
      if (token.identifier || CODE.test(token.word)) coded.add(term);
    }
  const words = asked.map((term) => ({
    term,
    documents: lexical.documentFrequency(term),
    inPassages: rows.flatMap((row, i) => (lexical.has(term, row) ? [i] : [])),
    common: written.get(term) ?? false,
    code: coded.has(term),
  }));
  return {
    chunks: lexical.count,
    breadth: vocabularyBreadth(lexical),
    words,
    pairs: questionPairs.size,
    pairsFound: found.size,
  };
};

/**
 * A retriever's step after its vector search, the same for every index: the question's words,
 * the fused ranking, the chunks (`chunkOf` reads a row as the port shows it) and the evidence
 * core weighs for the decision.
 */
export const fusedRetrieval = (
  input: Omit<HybridInput, "words"> & {
    readonly question: string;
    readonly chunkOf: (row: number) => Omit<RetrievedChunk, "score">;
  },
): { readonly chunks: ReadonlyArray<RetrievedChunk>; readonly evidence: RelevanceEvidence } => {
  const { question, lexical } = input;
  const words = questionTerms(question, lexical.analysis);
  const fused = hybridSearch({ ...input, words });
  const chunks = fused.map(([row, score]): RetrievedChunk => ({ ...input.chunkOf(row), score }));
  const rows = fused.map(([row]) => row);
  return { chunks, evidence: relevanceEvidence(lexical, words, rows, question, chunks) };
};
