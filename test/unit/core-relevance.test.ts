/** The relevance decision: pure, from retrieval's evidence alone. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  DEFAULT_RELEVANCE,
  decideRelevance,
  measureRelevance,
  NO_EVIDENCE,
  nothingMatches,
  type RelevanceEvidence,
  type TermEvidence,
  termWeights,
} from "../../core/answers/relevance.ts";

/** A term: passages of the docs that hold it, the best passages that do, a common word or a name. */
const word = (term: string, documents: number, inPassages: number[] = [], common = true): TermEvidence => ({
  term,
  documents,
  inPassages,
  common,
});

/** A large manual (thousands of passages, most ordinary words used) and a five-page product site. */
const LARGE = { chunks: 5000, breadth: 0.6 };
const SMALL = { chunks: 5, breadth: 0.04 };

const asked = (
  corpus: { chunks: number; breadth: number },
  words: TermEvidence[],
  pairsFound = 0,
): RelevanceEvidence => ({ ...corpus, words, pairs: Math.max(words.length - 1, 0), pairsFound });

describe("decideRelevance on a large manual (the rule the large corpora were calibrated on)", () => {
  test("answers when the best passage holds the question's words", () => {
    const question = asked(LARGE, [word("creat", 800, [0, 1]), word("readstream", 12, [0], false)], 1);
    expect(decideRelevance(question)).toBe("answer");
  });

  test("declines a question naming something the docs never mention, though its other words occur", () => {
    const heroku = asked(LARGE, [
      word("deploy", 30, [0]),
      word("app", 200, [0, 1]),
      word("heroku", 0, [], false),
    ]);
    expect(measureRelevance(heroku).known).toBeLessThan(DEFAULT_RELEVANCE.minKnown.large);
    expect(decideRelevance(heroku)).toBe("decline");
  });

  test("an absent ordinary word counts fully: the manual would use it if the question were about it", () => {
    const capital = asked(LARGE, [word("capit", 0), word("australia", 0)]);
    expect(decideRelevance(capital)).toBe("decline");
  });

  test("words scattered over a passage need more coverage than a pair the docs write side by side", () => {
    const words = [word("react", 50, [0], false), word("hook", 50, [1]), word("compon", 50, [2])];
    const coverage = measureRelevance(asked(LARGE, words)).coverage;
    expect(coverage).toBeGreaterThan(DEFAULT_RELEVANCE.minCoverage.large);
    expect(coverage).toBeLessThan(DEFAULT_RELEVANCE.minCoverageWithoutPair.large);
    expect(decideRelevance(asked(LARGE, words, 0))).toBe("decline");
    expect(decideRelevance(asked(LARGE, words, 1))).toBe("answer");
  });
});

describe("decideRelevance on a five-page product site", () => {
  test("answers when the subject is in the docs, whatever ordinary words around it they never use", () => {
    // "How loud is the alarm?", "What happens after 5 wrong codes?"
    expect(decideRelevance(asked(SMALL, [word("loud", 0), word("alarm", 1, [0], false)]))).toBe("answer");
    const codes = asked(SMALL, [word("happen", 0), word("wrong", 1, [1]), word("code", 1, [1])]);
    expect(decideRelevance(codes)).toBe("answer");
  });

  test("declines when nothing in the docs matches what it asks", () => {
    // "What is the capital of Canada?" on a kettle's docs; "Who painted the Mona Lisa?"
    expect(decideRelevance(asked(SMALL, [word("capit", 0), word("canada", 0)]))).toBe("decline");
    const painted = asked(SMALL, [word("paint", 0), word("mona", 0, [], false), word("lisa", 0)]);
    expect(decideRelevance(painted)).toBe("decline");
  });

  test("a name the docs never use still counts fully: another product's question is declined", () => {
    // "What is the best temperature for oolong?" on a bike lock's docs that mention a temperature once.
    const oolong = asked(SMALL, [
      word("temperatur", 1, [2]),
      word("oolong", 0, [], false),
      word("tea", 0, [], false),
    ]);
    expect(decideRelevance(oolong)).toBe("decline");
  });

  test("a code the docs list (E07, --dry-run) outweighs the ordinary words around it", () => {
    // "Auf dem Display steht E07 – was ist kaputt?"
    const words = [
      word("display", 0, [], false),
      word("steht", 0),
      word("e07", 1, [0], false),
      word("kaputt", 0),
    ];
    const asCode = words.map((w) => (w.term === "e07" ? { ...w, code: true } : w));
    expect(decideRelevance(asked(SMALL, words))).toBe("decline");
    expect(decideRelevance(asked(SMALL, asCode))).toBe("answer");
  });

  test("the same question is answered on a small site and declined on a large manual", () => {
    const words = [word("loud", 0), word("alarm", 1, [0], false)];
    expect(decideRelevance(asked(SMALL, words))).toBe("answer");
    expect(decideRelevance(asked(LARGE, words))).toBe("decline");
  });
});

describe("decideRelevance, whatever the corpus", () => {
  test("declines with no informative word, or no evidence at all", () => {
    expect(decideRelevance(NO_EVIDENCE)).toBe("decline");
    expect(decideRelevance(asked(LARGE, []))).toBe("decline");
    expect(decideRelevance(asked(SMALL, []))).toBe("decline");
  });

  test("nothing matches only when no passage holds any of the question's words", () => {
    expect(nothingMatches(asked(SMALL, [word("capit", 0), word("canada", 0)]))).toBe(true);
    expect(nothingMatches(asked(LARGE, [word("start", 40), word("weather", 0)]))).toBe(true);
    expect(nothingMatches(asked(SMALL, [word("tyre", 0), word("us", 1, [0])]))).toBe(false);
    expect(nothingMatches(NO_EVIDENCE)).toBe(true);
  });

  test("a custom policy is honoured", () => {
    const words = [word("react", 6, [0], false), word("hook", 200, [1]), word("compon", 30, [1])];
    const lenient = {
      ...DEFAULT_RELEVANCE,
      minCoverage: { small: 0.1, large: 0.1 },
      minCoverageWithoutPair: { small: 0.1, large: 0.1 },
      minKnown: { small: 0.5, large: 0.5 },
    };
    expect(decideRelevance(asked(LARGE, words), lenient)).toBe("answer");
  });

  const corpus = fc.record({
    chunks: fc.integer({ min: 1, max: 20_000 }),
    breadth: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  const term = (chunks: number) =>
    fc.record({
      documents: fc.integer({ min: 0, max: chunks }),
      passages: fc.subarray([0, 1, 2, 3, 4]),
      common: fc.boolean(),
    });

  test("finding one more of the question's words in the best passage never turns an answer into a decline", () => {
    fc.assert(
      fc.property(
        corpus.chain((c) =>
          fc.tuple(fc.constant(c), fc.array(term(c.chunks), { minLength: 2, maxLength: 8 })),
        ),
        fc.nat(),
        fc.nat(3),
        ([c, terms], pick, pairsFound) => {
          const words = terms.map((t, i) =>
            word(`t${i}`, t.documents, t.documents === 0 ? [] : t.passages, t.common),
          );
          if (decideRelevance(asked(c, words, pairsFound)) !== "answer") return;
          const i = pick % words.length;
          const best = Math.max(...measureBest(asked(c, words)));
          const improved = words.map((w, j) =>
            j === i
              ? word(w.term, Math.max(w.documents, 1), [...new Set([...w.inPassages, best])], w.common)
              : w,
          );
          // Becoming known can only lower a term's weight (its rarity is that of a term used once).
          expect(decideRelevance(asked(c, improved, pairsFound))).toBe("answer");
        },
      ),
    );
  });

  /** The passage whose words weigh most (the one coverage is measured on), as a one-element list. */
  const measureBest = (evidence: RelevanceEvidence): number[] => {
    const weights = termWeights(evidence);
    const passages = [...new Set(evidence.words.flatMap((w) => w.inPassages))];
    if (passages.length === 0) return [0];
    const weightOf = (p: number) =>
      evidence.words.reduce((sum, w, i) => sum + (w.inPassages.includes(p) ? weights[i]! : 0), 0);
    return [passages.reduce((a, b) => (weightOf(b) > weightOf(a) ? b : a))];
  };
});
