/**
 * Whether the docs cover a question well enough to answer it, decided from what retrieval
 * measured about each of the question's terms: how many passages of the docs use it, and which
 * of the best passages contain it. A declined question is answered with a fixed sentence and
 * costs nothing, but a false decline is worse than it looks: the visitor gets nothing, and the
 * owner's console lists a "docs gap" the docs do not have. So the rule declines only when the
 * best passages miss what the question is about.
 *
 * Weights. A term weighs by its rarity in the docs (BM25's idf): "replication slot" matters more
 * than "use" in the PostgreSQL docs. A term the docs never use weighs as much as one they use
 * once, not more. What its absence tells depends on the docs: a large manual uses most ordinary
 * words, so one it lacks names something else ("Heroku"); a five-page site uses few, so a
 * missing "happens", "loud" or "dead" says little. The docs' `breadth` (the share of their
 * language's most common words they use) measures it: an absent common word weighs by it, and
 * every threshold moves with it between its small-site and its large-manual value. A rare word
 * the docs lack (a name) weighs fully at any size; a word written as code weighs double.
 *
 * The thresholds were calibrated on the dev, held-out and out-of-scope sets of two large corpora
 * and on small product sites (docs/architecture.md, "Declining").
 */

/** What retrieval found out about one term of the question. */
export interface TermEvidence {
  readonly term: string;
  /** Passages of the docs that contain it (0: the docs never use it). */
  readonly documents: number;
  /** Positions (0-based) of the best passages that contain it. */
  readonly inPassages: ReadonlyArray<number>;
  /**
   * The word as the visitor wrote it is among the most common words of the docs' language:
   * its absence from the docs says little (see above); a rarer word is the name of something.
   */
  readonly common?: boolean | undefined;
  /**
   * Written as code: an identifier (`fs.readdir`, `--dry-run`, `max_wal_size`) or a code of
   * letters and digits (E07, v2): the most specific words a question can carry.
   */
  readonly code?: boolean | undefined;
}

/** What retrieval found out about a question. */
export interface RelevanceEvidence {
  /** Passages in the docs. */
  readonly chunks: number;
  /**
   * 0..1: the share of their language's most common words the docs use (about 0.6 for a large
   * manual, under 0.1 for a five-page product site): how likely an ordinary word of a question
   * about them is to occur in them.
   */
  readonly breadth: number;
  /** The question's distinct informative terms (stop words excluded), in order. */
  readonly words: ReadonlyArray<TermEvidence>;
  /** Pairs of adjacent words in the question ("replication slot", "react hooks"). */
  readonly pairs: number;
  /** How many of those pairs stand side by side in one of the best passages too. */
  readonly pairsFound: number;
}

/** The shares the decision is made from (each 0..1). */
export interface RelevanceMeasures {
  readonly terms: number;
  /** Share of the question's weight found in the best passage. */
  readonly coverage: number;
  /** Share of the question's weight that occurs anywhere in the docs. */
  readonly known: number;
}

/** A threshold on the narrowest docs (a few pages) and on the broadest (a large manual). */
export interface Threshold {
  readonly small: number;
  readonly large: number;
}

export interface RelevancePolicy {
  /** Below this best-passage coverage the question is declined. */
  readonly minCoverage: Threshold;
  /**
   * Below this coverage the question is declined unless a pair of its adjacent words also
   * stands side by side in a passage: words scattered over a passage ("react" here, "hooks"
   * there) are a weaker match than a phrase the docs use. A small site's few passages rarely
   * share a visitor's phrasing, so there it asks no more than `minCoverage`.
   */
  readonly minCoverageWithoutPair: Threshold;
  /** Below this share of known words the question is declined, whatever the coverage. */
  readonly minKnown: Threshold;
  /** Docs using this share of their language's common words count as broadest (see `corpusBreadth`). */
  readonly fullBreadth: number;
  /** An absent common word counts at least this share of its weight. */
  readonly minAbsence: number;
  /** A word written as code weighs this many times its rarity. */
  readonly codeWeight: number;
}

/**
 * The large-corpus thresholds are the ones calibrated on the Node.js and PostgreSQL sets before
 * docs sizes were told apart; the small ones on small product sites (docs/architecture.md).
 */
export const DEFAULT_RELEVANCE: RelevancePolicy = {
  minCoverage: { small: 0.2, large: 0.3 },
  minCoverageWithoutPair: { small: 0.2, large: 0.45 },
  minKnown: { small: 0.5, large: 0.8 },
  fullBreadth: 0.5,
  minAbsence: 0.1,
  codeWeight: 2,
};

export type RelevanceDecision = "answer" | "decline";

/** Evidence for a question retrieval found nothing for (no terms, or an empty index). */
export const NO_EVIDENCE: RelevanceEvidence = { chunks: 0, breadth: 0, words: [], pairs: 0, pairsFound: 0 };

/** BM25's idf of a term found in `documents` of `chunks` passages (at least once, see above). */
const rarity = (documents: number, chunks: number) => {
  const df = Math.max(documents, 1);
  return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
};

/** 0..1: how much of ordinary language a corpus of this size uses (see above). */
const corpusBreadth = (evidence: RelevanceEvidence, policy: RelevancePolicy) =>
  Math.min(1, Math.max(policy.minAbsence, evidence.breadth / policy.fullBreadth));

/** The weight of each term: its rarity, scaled down when absent from a small corpus. */
export const termWeights = (
  evidence: RelevanceEvidence,
  policy: RelevancePolicy = DEFAULT_RELEVANCE,
): ReadonlyArray<number> => {
  const absence = corpusBreadth(evidence, policy);
  return evidence.words.map(
    (word) =>
      rarity(word.documents, evidence.chunks) *
      (word.documents > 0 || word.common === false ? 1 : absence) *
      (word.code === true ? policy.codeWeight : 1),
  );
};

/** Coverage and known share of a question's weight. */
export const measureRelevance = (
  evidence: RelevanceEvidence,
  policy: RelevancePolicy = DEFAULT_RELEVANCE,
): RelevanceMeasures => {
  const { words } = evidence;
  const weights = termWeights(evidence, policy);
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (words.length === 0 || total === 0 || evidence.chunks === 0)
    return { terms: words.length, coverage: 0, known: 0 };
  const known = words.reduce((sum, word, i) => sum + (word.documents > 0 ? weights[i]! : 0), 0);
  const passages = new Set(words.flatMap((word) => word.inPassages));
  const coverage = Math.max(
    0,
    ...[...passages].map((passage) =>
      words.reduce((sum, word, i) => sum + (word.inPassages.includes(passage) ? weights[i]! : 0), 0),
    ),
  );
  return { terms: words.length, coverage: coverage / total, known: known / total };
};

/**
 * Whether nothing in the best passages matches the question (none holds any of its words): what
 * the rule still declines when a language model judges the rest itself.
 */
export const nothingMatches = (evidence: RelevanceEvidence): boolean =>
  evidence.words.every((word) => word.inPassages.length === 0);

/** A threshold for docs of this breadth, between its small and its large value. */
const thresholdFor = (threshold: Threshold, breadth: number) =>
  threshold.small + (threshold.large - threshold.small) * breadth;

/** Answer or decline, from the evidence alone. */
export const decideRelevance = (
  evidence: RelevanceEvidence,
  policy: RelevancePolicy = DEFAULT_RELEVANCE,
): RelevanceDecision => {
  const { terms, coverage, known } = measureRelevance(evidence, policy);
  const breadth = corpusBreadth(evidence, policy);
  const least = (threshold: Threshold) => thresholdFor(threshold, breadth);
  return terms === 0 ||
    coverage < least(policy.minCoverage) ||
    known < least(policy.minKnown) ||
    (evidence.pairsFound === 0 && coverage < least(policy.minCoverageWithoutPair))
    ? "decline"
    : "answer";
};
