/**
 * BM25F over records with four text fields, analysed like the hashed embedder (identifiers
 * split, stemmed). Each field's weighted, length-normalised term frequency is folded into one
 * number per (term, record) at build time, and postings live in flat typed arrays, so an
 * index of ~5,000 chunks takes a few MB. (MiniSearch, tried first, took ~100 MB and 0.3-0.6 s
 * to build for the same corpus, and sums per-field BM25 instead of BM25F.)
 */
import { terms } from "../text-analysis/analyze.ts";
import { topK } from "./top-k.ts";

export const FIELDS = ["heading", "parents", "title", "text"] as const;
export type Field = (typeof FIELDS)[number];
export type FieldTexts = Readonly<Record<Field, string>>;

export interface Bm25Params {
  /** How much a term occurrence in each field counts. */
  readonly weights: Readonly<Record<Field, number>>;
  /** Length normalisation per field (0: none, 1: full). */
  readonly b: Readonly<Record<Field, number>>;
  readonly k1: number;
}

/** Postings as (term, record, tf) triples, appended record by record. */
const collect = (records: ReadonlyArray<FieldTexts>, params: Bm25Params) => {
  const analysed = records.map((record) => FIELDS.map((field) => terms(record[field])));
  const averages = FIELDS.map((_, f) => {
    const total = analysed.reduce((sum, fields) => sum + fields[f]!.length, 0);
    return Math.max(total / Math.max(records.length, 1), 1);
  });
  const vocabulary = new Map<string, number>();
  const termIds: number[] = [];
  const recordIds: number[] = [];
  const tfs: number[] = [];
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
      tfs.push(tf);
    }
  });
  return { vocabulary, termIds, recordIds, tfs };
};

/** Builds the index; `search` gives record positions, best first. */
export const buildBm25 = (records: ReadonlyArray<FieldTexts>, params: Bm25Params) => {
  const collected = collect(records, params);
  const { vocabulary } = collected;
  // Counting sort of the triples by term: offsets[t]..offsets[t+1] are term t's postings.
  const offsets = new Uint32Array(vocabulary.size + 1);
  for (const id of collected.termIds) offsets[id + 1]!++;
  for (let t = 0; t < vocabulary.size; t++) offsets[t + 1]! += offsets[t]!;
  const fill = offsets.slice(0, vocabulary.size);
  const postingRecords = new Uint32Array(collected.termIds.length);
  const postingTfs = new Float32Array(collected.termIds.length);
  collected.termIds.forEach((id, i) => {
    const at = fill[id]!++;
    postingRecords[at] = collected.recordIds[i]!;
    postingTfs[at] = collected.tfs[i]!;
  });
  const count = records.length;
  const { k1 } = params;
  return {
    search: (question: string, limit: number): ReadonlyArray<number> => {
      const scores = new Float32Array(count);
      const touched: number[] = [];
      for (const term of new Set(terms(question))) {
        const id = vocabulary.get(term);
        if (id === undefined) continue;
        const start = offsets[id]!;
        const end = offsets[id + 1]!;
        const df = end - start;
        const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
        for (let p = start; p < end; p++) {
          const r = postingRecords[p]!;
          const tf = postingTfs[p]!;
          if (scores[r] === 0) touched.push(r);
          scores[r]! += (idf * tf * (k1 + 1)) / (tf + k1);
        }
      }
      return topK(touched, limit, (a, b) => scores[b]! - scores[a]! || a - b);
    },
  };
};
