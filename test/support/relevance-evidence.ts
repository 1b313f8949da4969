/** Relevance evidence for scripted retrievers: one the rule answers, one it declines. */
import type { RelevanceEvidence } from "../../core/answers/relevance.ts";

/** A large corpus whose best passage holds every word of the question, two of them side by side. */
export const COVERED: RelevanceEvidence = {
  chunks: 1000,
  breadth: 0.6,
  words: [
    { term: "start", documents: 40, inPassages: [0, 1], common: true },
    { term: "tcp", documents: 5, inPassages: [0], common: false },
    { term: "server", documents: 60, inPassages: [0, 2], common: true },
  ],
  pairs: 2,
  pairsFound: 2,
};

/** The same corpus, asked about words it never uses (one it does, in none of the passages found: nothing matches). */
export const OFF_TOPIC: RelevanceEvidence = {
  chunks: 1000,
  breadth: 0.6,
  words: [
    { term: "weather", documents: 0, inPassages: [], common: true },
    { term: "pari", documents: 0, inPassages: [], common: false },
    { term: "start", documents: 40, inPassages: [], common: true },
  ],
  pairs: 2,
  pairsFound: 0,
};
