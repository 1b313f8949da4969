/** The relevance decision: pure, from retrieval's evidence alone. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DEFAULT_RELEVANCE, decideRelevance, NO_EVIDENCE } from "../../core/relevance.ts";

const evidence = (coverage: number, known = 1, terms = 4, pairsFound = 1) => ({
  terms,
  coverage,
  known,
  pairs: 3,
  pairsFound,
});
const { minCoverage, minCoverageWithoutPair, minKnown } = DEFAULT_RELEVANCE;

describe("decideRelevance", () => {
  test("answers when the best passage covers the question and its words are known", () => {
    expect(decideRelevance(evidence(0.9))).toBe("answer");
    expect(decideRelevance(evidence(minCoverage, minKnown))).toBe("answer");
    expect(decideRelevance(evidence(minCoverageWithoutPair, 1, 4, 0))).toBe("answer");
  });

  test("declines below either threshold, and with no informative word at all", () => {
    expect(decideRelevance(evidence(minCoverage - 0.01))).toBe("decline");
    expect(decideRelevance(evidence(0.9, minKnown - 0.01))).toBe("decline");
    expect(decideRelevance(evidence(1, 1, 0))).toBe("decline");
    expect(decideRelevance(NO_EVIDENCE)).toBe("decline");
  });

  test("scattered words need more coverage than a phrase the docs use", () => {
    const between = (minCoverage + minCoverageWithoutPair) / 2;
    expect(decideRelevance(evidence(between, 1, 4, 1))).toBe("answer");
    expect(decideRelevance(evidence(between, 1, 4, 0))).toBe("decline");
  });

  test("a custom policy is honoured", () => {
    const lenient = { minCoverage: 0.2, minCoverageWithoutPair: 0.2, minKnown: 0 };
    expect(decideRelevance(evidence(0.3, 1, 4, 0), lenient)).toBe("answer");
    expect(decideRelevance(evidence(0.3), { ...lenient, minCoverage: 0.4 })).toBe("decline");
  });

  test("more evidence never turns an answer into a decline (monotone)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 3 }),
        (coverage, known, extra, terms, found) => {
          if (decideRelevance(evidence(coverage, known, terms, found)) === "answer")
            expect(
              decideRelevance(
                evidence(Math.min(1, coverage + extra), Math.min(1, known + extra), terms, found + 1),
              ),
            ).toBe("answer");
        },
      ),
    );
  });
});
