/**
 * Pages that only repeat other pages: the single-page or print version of a docs set (Node's
 * all.html, Sphinx's singlehtml, a DocBook book.html). Indexed beside the pages they repeat,
 * they win on sheer size and push the real page out of the results, so they are left out.
 * A page is an aggregate when most of its word 8-grams (a sample of them, by hash) also occur
 * in other pages, even leaving out the page it shares most with, and it is at least three
 * times larger than any of them: a page repeated inside an aggregate, a plain copy of one
 * page (two versions of a guide), and sibling pages sharing boilerplate are kept.
 */

const SHINGLE = 8;
/** One 8-gram in SAMPLE is kept (by hash), which keeps the sets small on large docs sets. */
const SAMPLE = 4;
export const AGGREGATE = { share: 0.5, pages: 3, sizeRatio: 3 } as const;

/** FNV-1a of a string, 32 bits. */
const hash = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

const shingles = (text: string): Set<number> => {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const sample = new Set<number>();
  for (let i = 0; i + SHINGLE <= words.length; i++) {
    const h = hash(words.slice(i, i + SHINGLE).join(" "));
    if (h % SAMPLE === 0) sample.add(h);
  }
  return sample;
};

/** The positions of the pages (given as their whole text) that are aggregates of the others. */
export const aggregatePages = (texts: ReadonlyArray<string>): ReadonlySet<number> => {
  const sets = texts.map(shingles);
  // For each shingle, the first two pages holding it (two tell "shared" from "own").
  const holders = new Map<number, number[]>();
  sets.forEach((set, page) => {
    for (const h of set) {
      const list = holders.get(h);
      if (list === undefined) holders.set(h, [page]);
      else if (list.length < 2) list.push(page);
    }
  });
  const aggregates = new Set<number>();
  sets.forEach((set, page) => {
    if (set.size === 0) return;
    // How many of this page's 8-grams each other page also holds.
    const byOther = new Map<number, number>();
    for (const h of set) {
      const list = holders.get(h)!;
      if (list.length < 2) continue;
      const other = list[0] === page ? list[1]! : list[0]!;
      byOther.set(other, (byOther.get(other) ?? 0) + 1);
    }
    const counts = [...byOther.values()];
    const shared = counts.reduce((sum, n) => sum + n, 0);
    // A page repeated inside an aggregate is covered by that one page; an aggregate by many,
    // and it is much larger than any of them (sibling pages that share boilerplate are not).
    const beyondTop = shared - Math.max(0, ...counts);
    const largestOther = Math.max(0, ...[...byOther.keys()].map((other) => sets[other]!.size));
    if (
      beyondTop / set.size >= AGGREGATE.share &&
      byOther.size >= AGGREGATE.pages &&
      set.size >= AGGREGATE.sizeRatio * largestOther
    )
      aggregates.add(page);
  });
  return aggregates;
};
