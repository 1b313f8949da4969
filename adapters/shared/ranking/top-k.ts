/**
 * The `limit` best items under `compare` (negative = a before b), best first: a bounded,
 * sorted buffer with binary insertion. Retrieval keeps 50 of thousands of scored rows; sorting
 * them all cost more than scoring them. `compare` must be a total order (break ties), so the
 * result is exactly `items.sort(compare).slice(0, limit)`.
 */
export const topK = <T>(items: Iterable<T>, limit: number, compare: (a: T, b: T) => number): T[] => {
  const best: T[] = [];
  if (limit <= 0) return best;
  for (const item of items) {
    if (best.length === limit && compare(item, best[limit - 1]!) >= 0) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(item, best[mid]!) < 0) high = mid;
      else low = mid + 1;
    }
    best.splice(low, 0, item);
    if (best.length > limit) best.pop();
  }
  return best;
};
