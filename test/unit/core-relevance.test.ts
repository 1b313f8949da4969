/** The relevance decision: pure, from retrieval's evidence alone. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { DEFAULT_RELEVANCE, decideRelevance, NO_EVIDENCE } from "../../core/relevance.ts";

const evidence = (coverage: number, known = 1, terms = 4) => ({ terms, coverage, known });

describe("decideRelevance", () => {
  test("answers when the best passage covers the question and its words are known", () => {
    expect(decideRelevance(evidence(0.9))).toBe("answer");
    expect(decideRelevance(evidence(DEFAULT_RELEVANCE.minCoverage, DEFAULT_RELEVANCE.minKnown))).toBe(
      "answer",
    );
  });

  test("declines below either threshold, and with no informative word at all", () => {
    expect(decideRelevance(evidence(DEFAULT_RELEVANCE.minCoverage - 0.01))).toBe("decline");
    expect(decideRelevance(evidence(0.9, DEFAULT_RELEVANCE.minKnown - 0.01))).toBe("decline");
    expect(decideRelevance(evidence(1, 1, 0))).toBe("decline");
    expect(decideRelevance(NO_EVIDENCE)).toBe("decline");
  });

  test("a custom policy is honoured", () => {
    expect(decideRelevance(evidence(0.3), { minCoverage: 0.2, minKnown: 0 })).toBe("answer");
    expect(decideRelevance(evidence(0.3), { minCoverage: 0.4, minKnown: 0 })).toBe("decline");
  });

  test("more evidence never turns an answer into a decline (monotone)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 30 }),
        (coverage, known, extra, terms) => {
          if (decideRelevance(evidence(coverage, known, terms)) === "answer")
            expect(
              decideRelevance(evidence(Math.min(1, coverage + extra), Math.min(1, known + extra), terms)),
            ).toBe("answer");
        },
      ),
    );
  });
});
