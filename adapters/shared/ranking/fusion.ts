/**
 * Reciprocal rank fusion: each ranked list gives a candidate weight / (k + rank). It needs no
 * score calibration between BM25 and cosine similarity, and a passage both rankings find rises.
 */

export interface RankedList {
  /** Candidate positions, best first. */
  readonly ranked: ReadonlyArray<number>;
  readonly weight: number;
}

export const RRF_K = 60;

/** Fuses ranked lists into [position, score] pairs, best first (ties: lower position first). */
export const reciprocalRankFusion = (
  lists: ReadonlyArray<RankedList>,
  k: number = RRF_K,
): ReadonlyArray<readonly [number, number]> => {
  const scores = new Map<number, number>();
  for (const { ranked, weight } of lists) {
    ranked.forEach((position, rank) => {
      scores.set(position, (scores.get(position) ?? 0) + weight / (k + rank + 1));
    });
  }
  return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
};
