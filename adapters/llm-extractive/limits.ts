/** How much an extractive answer quotes (choose.ts, context.ts, compose.ts). */
export const LIMITS = {
  /** Sentences chosen by score, from at most `passages` passages... */
  sentences: 4,
  passages: 2,
  /** ...and with what they lead to, at most this many in all. */
  sentencesWithFollowers: 5,
  /** Other related sections named at the end ("See also"). */
  related: 2,
  answerChars: 1400,
  sentenceChars: 400,
  codeChars: 1200,
  /** Share of the question's weight a passage must cover to be quoted, named or listed at all. */
  minCoverage: 0.1,
  /**
   * Share of the best passage's `share` of the question a passage needs to be quoted, named or
   * listed, and of the best sentence's a sentence needs to be quoted (measured: 0.4 cost one
   * phrase of the large corpora's 153, 0.35 none).
   */
  relatedShare: 0.35,
  /** Share of the best sentence's score a sentence needs to be quoted beside it. */
  relativeScore: 0.5,
  /** Sentences scoring at least this share of the best one vote for the code name the answer shows. */
  codeNameVote: 0.3,
} as const;
