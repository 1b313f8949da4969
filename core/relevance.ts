/**
 * Whether the docs cover a question well enough to answer it, decided from what retrieval
 * measured (facts only: how much of the question's weight the best passage and the corpus
 * contain). A declined question is answered with a fixed sentence and costs nothing, so the
 * decision leans towards answering: it declines only when the best passage misses most of
 * what the question is about. The thresholds were calibrated on the dev and out-of-scope sets
 * of two corpora (README: "Declining").
 */

/** What retrieval found out about a question (every share is 0..1). */
export interface RelevanceEvidence {
  /** Distinct informative terms of the question (stop words excluded). */
  readonly terms: number;
  /** Share of the question's term weight (rarer terms weigh more) found in the best passage. */
  readonly coverage: number;
  /** Share of the question's term weight that occurs anywhere in the docs. */
  readonly known: number;
  /** Pairs of adjacent words in the question ("replication slot", "react hooks"). */
  readonly pairs: number;
  /** How many of those pairs stand side by side in one of the best passages too. */
  readonly pairsFound: number;
}

export interface RelevancePolicy {
  /** Below this best-passage coverage the question is declined. */
  readonly minCoverage: number;
  /**
   * Below this coverage the question is declined unless a pair of its adjacent words also
   * stands side by side in a passage: words scattered over a passage ("react" here, "hooks"
   * there) are a weaker match than a phrase the docs use.
   */
  readonly minCoverageWithoutPair: number;
  /** Below this share of known words the question is declined, whatever the coverage. */
  readonly minKnown: number;
}

export const DEFAULT_RELEVANCE: RelevancePolicy = {
  minCoverage: 0.3,
  minCoverageWithoutPair: 0.45,
  minKnown: 0.8,
};

export type RelevanceDecision = "answer" | "decline";

/** Evidence for a question retrieval found nothing for (no terms, or an empty index). */
export const NO_EVIDENCE: RelevanceEvidence = { terms: 0, coverage: 0, known: 0, pairs: 0, pairsFound: 0 };

/** Answer or decline, from the evidence alone. */
export const decideRelevance = (
  evidence: RelevanceEvidence,
  policy: RelevancePolicy = DEFAULT_RELEVANCE,
): RelevanceDecision =>
  evidence.terms === 0 ||
  evidence.coverage < policy.minCoverage ||
  evidence.known < policy.minKnown ||
  (evidence.pairsFound === 0 && evidence.coverage < policy.minCoverageWithoutPair)
    ? "decline"
    : "answer";
