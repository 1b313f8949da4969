import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { topK } from "../../adapters/shared/ranking/top-k.ts";

describe("topK", () => {
  test("equals sort + slice for any scores and limit (ties broken by index)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 60 }),
        (scores, limit) => {
          const rows = scores.map((score, index) => [index, score] as const);
          const compare = (a: readonly [number, number], b: readonly [number, number]) =>
            b[1] - a[1] || a[0] - b[0];
          expect(topK(rows, limit, compare)).toEqual([...rows].sort(compare).slice(0, limit));
        },
      ),
    );
  });
});
