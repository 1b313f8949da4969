/**
 * Vectors kept as int8 with one float scale per row: a quarter of the memory and file size of
 * float32, and for unit-length embeddings the ranking is practically unchanged (each value
 * is off by at most half a step of max|v| / 127).
 */
import { topK } from "../shared/ranking/top-k.ts";

export interface VectorRows {
  readonly dimensions: number;
  readonly count: number;
  /** count * dimensions quantized values, one row per chunk. */
  readonly values: Int8Array;
  /** One scale per row: value * scale restores the original number. */
  readonly scales: Float32Array;
}

/** Quantizes float rows (each of `dimensions` numbers). */
export const quantizeRows = (rows: ReadonlyArray<Float32Array>, dimensions: number): VectorRows => {
  const values = new Int8Array(rows.length * dimensions);
  const scales = new Float32Array(rows.length);
  rows.forEach((row, r) => {
    let max = 0;
    for (let d = 0; d < dimensions; d++) max = Math.max(max, Math.abs(row[d] ?? 0));
    const scale = max === 0 ? 1 : max / 127;
    scales[r] = scale;
    const offset = r * dimensions;
    for (let d = 0; d < dimensions; d++) values[offset + d] = Math.round((row[d] ?? 0) / scale);
  });
  return { dimensions, count: rows.length, values, scales };
};

/** Row `r` as floats again. */
export const rowVector = (rows: VectorRows, r: number): Float32Array => {
  const out = new Float32Array(rows.dimensions);
  const offset = r * rows.dimensions;
  const scale = rows.scales[r]!;
  for (let d = 0; d < rows.dimensions; d++) out[d] = rows.values[offset + d]! * scale;
  return out;
};

/** The `limit` rows most similar to `query` by dot product (cosine for unit vectors), best first. */
export const nearest = (
  rows: VectorRows,
  query: Float32Array,
  limit: number,
): ReadonlyArray<readonly [number, number]> => {
  const { dimensions, values, scales } = rows;
  // Only the query's non-zero dimensions can add to a dot product, and a hashed question vector
  // has a few dozen of 1024: skipping the zeros makes the scan ~20x cheaper with the same sums.
  const dims: number[] = [];
  for (let d = 0; d < dimensions; d++) if (query[d] !== 0) dims.push(d);
  const weights = Float64Array.from(dims, (d) => query[d]!);
  // Scores in one typed array and the matching rows as numbers (as the BM25 index does): no pair is
  // made per row, only for the winners.
  const scores = new Float64Array(rows.count);
  const matching: number[] = [];
  for (let r = 0; r < rows.count; r++) {
    let dot = 0;
    const offset = r * dimensions;
    for (let i = 0; i < dims.length; i++) dot += values[offset + dims[i]!]! * weights[i]!;
    if (dot > 0) {
      scores[r] = dot * scales[r]!;
      matching.push(r);
    }
  }
  return topK(matching, limit, (a, b) => scores[b]! - scores[a]! || a - b).map(
    (r) => [r, scores[r]!] as const,
  );
};
