/**
 * BM25F over records with several text fields, analysed like the hashed embedder (identifiers
 * split, stemmed). Each field's weighted, length-normalised term frequency is folded into one
 * number per (term, record) at build time, and the postings live in flat typed arrays (the
 * `Bm25Tables`), so an index of 10,000 chunks takes a few MB and can be written to disk as it
 * is: the local index stores them, the service only reads them. Within a term, postings are in
 * record order, so "does record r contain term t" is a binary search.
 */
import { type Analysis, analysisFor } from "../text-analysis/analyze.ts";
import { topK } from "./top-k.ts";

export const FIELDS = ["heading", "parents", "title", "code", "text"] as const;
export type Field = (typeof FIELDS)[number];
export type FieldTexts = Readonly<Record<Field, string>>;

export interface Bm25Params {
  /** How much a term occurrence in each field counts. */
  readonly weights: Readonly<Record<Field, number>>;
  /** Length normalisation per field (0: none, 1: full). */
  readonly b: Readonly<Record<Field, number>>;
  readonly k1: number;
}

/** The whole index as plain arrays: term t's postings are offsets[t]..offsets[t+1]. */
export interface Bm25Tables {
  /** The docs' language (ISO 639-1): the analysis that cut them into these terms. */
  readonly language: string;
  readonly count: number;
  readonly k1: number;
  readonly terms: ReadonlyArray<string>;
  readonly offsets: Uint32Array;
  readonly records: Uint32Array;
  readonly tfs: Float32Array;
}

/** Builds the tables from the records' fields. */
export const buildBm25Tables = (
  records: ReadonlyArray<FieldTexts>,
  params: Bm25Params,
  analysis: Analysis = analysisFor("en"),
): Bm25Tables => {
  const analysed = records.map((record) => FIELDS.map((field) => analysis.terms(record[field])));
  const averages = FIELDS.map((_, f) => {
    const total = analysed.reduce((sum, fields) => sum + fields[f]!.length, 0);
    return Math.max(total / Math.max(records.length, 1), 1);
  });
  const vocabulary = new Map<string, number>();
  const termIds: number[] = [];
  const recordIds: number[] = [];
  const weightedTfs: number[] = [];
  analysed.forEach((fields, r) => {
    const weighted = new Map<number, number>();
    FIELDS.forEach((field, f) => {
      const list = fields[f]!;
      const b = params.b[field];
      const add = params.weights[field] / (1 - b + (b * list.length) / averages[f]!);
      for (const term of list) {
        let id = vocabulary.get(term);
        if (id === undefined) {
          id = vocabulary.size;
          vocabulary.set(term, id);
        }
        weighted.set(id, (weighted.get(id) ?? 0) + add);
      }
    });
    for (const [id, tf] of weighted) {
      termIds.push(id);
      recordIds.push(r);
      weightedTfs.push(tf);
    }
  });
  // Counting sort of the triples by term; records stay in order within a term.
  const offsets = new Uint32Array(vocabulary.size + 1);
  for (const id of termIds) offsets[id + 1]!++;
  for (let t = 0; t < vocabulary.size; t++) offsets[t + 1]! += offsets[t]!;
  const fill = offsets.slice(0, vocabulary.size);
  const postingRecords = new Uint32Array(termIds.length);
  const postingTfs = new Float32Array(termIds.length);
  termIds.forEach((id, i) => {
    const at = fill[id]!++;
    postingRecords[at] = recordIds[i]!;
    postingTfs[at] = weightedTfs[i]!;
  });
  return {
    language: analysis.language,
    count: records.length,
    k1: params.k1,
    terms: [...vocabulary.keys()],
    offsets,
    records: postingRecords,
    tfs: postingTfs,
  };
};

/** Searching the tables: ranked records, and the term statistics relevance needs. */
export const bm25Searcher = (tables: Bm25Tables) => {
  const vocabulary = new Map(tables.terms.map((term, id) => [term, id]));
  const { count, k1, offsets, records, tfs } = tables;
  const documentFrequency = (term: string): number => {
    const id = vocabulary.get(term);
    return id === undefined ? 0 : offsets[id + 1]! - offsets[id]!;
  };
  /** Inverse document frequency; a term the docs never use gets the rarest term's weight. */
  const idf = (term: string): number => {
    const df = documentFrequency(term);
    return Math.log(1 + (count - df + 0.5) / (df + 0.5));
  };
  return {
    count,
    /** How questions to these tables are cut into terms: the docs' own analysis. */
    analysis: analysisFor(tables.language),
    documentFrequency,
    idf,
    /** Whether record `record` contains `term` (binary search in the term's postings). */
    has: (term: string, record: number): boolean => {
      const id = vocabulary.get(term);
      if (id === undefined) return false;
      let low = offsets[id]!;
      let high = offsets[id + 1]!;
      while (low < high) {
        const mid = (low + high) >>> 1;
        const at = records[mid]!;
        if (at === record) return true;
        if (at < record) low = mid + 1;
        else high = mid;
      }
      return false;
    },
    /** The `limit` best records for the question's terms with their scores, best first. */
    search: (
      questionTerms: ReadonlyArray<string>,
      limit: number,
    ): ReadonlyArray<readonly [number, number]> => {
      const scores = new Float32Array(count);
      const touched: number[] = [];
      for (const term of new Set(questionTerms)) {
        const id = vocabulary.get(term);
        if (id === undefined) continue;
        const weight = idf(term);
        for (let p = offsets[id]!; p < offsets[id + 1]!; p++) {
          const r = records[p]!;
          const tf = tfs[p]!;
          if (scores[r] === 0) touched.push(r);
          scores[r]! += (weight * tf * (k1 + 1)) / (tf + k1);
        }
      }
      return topK(touched, limit, (a, b) => scores[b]! - scores[a]! || a - b).map(
        (r) => [r, scores[r]!] as const,
      );
    },
  };
};

export type Bm25Searcher = ReturnType<typeof bm25Searcher>;
