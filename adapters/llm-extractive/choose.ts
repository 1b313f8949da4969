/**
 * Picks what an extractive answer quotes, from the scored passages (scoring.ts). Only related
 * passages are quoted: those covering enough of the question and holding at least 35% of what
 * the best passage holds of it (`share`: a passage that has only the words every page repeats
 * is not about the question). Their best sentences are quoted (at most four, from at most two
 * passages, each scoring at least half the best and holding 35% of the best one's share).
 * What a quoted sentence leads to or cannot be read without comes with it (context.ts): the
 * example it introduces, a sentence referring back to it or that it refers back to, and the
 * best sentence's next one while that still speaks of the question. The answer names the
 * thing to use: when the code name the relevant sentences mention most is not quoted, its best
 * sentence is. A "how" question also gets the best code block (up to 1200 characters) of any
 * related passage, whole: an example is often a section of its own.
 */
import { withContext } from "./context.ts";
import { LIMITS } from "./limits.ts";
import type { Scored, ScoredPassage } from "./scoring.ts";
import { wantsCode } from "./terms.ts";

export { LIMITS };

/** The code name (`X`) the given sentences mention most, weighted by their scores; none when none does. */
const topCodeName = (sentences: ReadonlyArray<Scored>): string | undefined => {
  const votes = new Map<string, number>();
  for (const s of sentences)
    for (const name of new Set([...s.segment.text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)))
      votes.set(name, (votes.get(name) ?? 0) + s.score);
  let top: string | undefined;
  for (const [name, vote] of votes) if (top === undefined || vote > votes.get(top)!) top = name;
  return top;
};

/** A passage worth quoting, naming or listing: enough of the question, and of what the best passage holds of it. */
export const related = (passage: ScoredPassage, passages: ReadonlyArray<ScoredPassage>): boolean =>
  passage.coverage >= LIMITS.minCoverage &&
  passage.share >= LIMITS.relatedShare * Math.max(...passages.map((p) => p.share));

/** The sentences (and maybe code) to quote, before they are put in passage order. */
export const choose = (
  question: string,
  passages: ReadonlyArray<ScoredPassage>,
  language = "en",
): ReadonlyArray<Scored> => {
  const quotable = passages.filter((p) => related(p, passages));
  if (quotable.length === 0) return [];
  const candidates = quotable.flatMap((p) =>
    p.scored.filter((s) => s.segment.kind === "sentence" && s.score > 0),
  );
  // A sentence with only the words every page repeats ("The Borealis Lock is a bicycle lock.")
  // does not answer, however well it scores as an opening.
  const bar = LIMITS.relatedShare * Math.max(0, ...candidates.map((s) => s.share));
  const ranked = candidates
    .filter((s) => s.share >= bar)
    .sort((a, b) => b.score - a.score || a.passage - b.passage || a.order - b.order);
  const best = ranked[0];
  if (best === undefined) {
    // No sentence has the question's words (a passage found by its heading): its opening sentence says what it is.
    const lead = quotable.reduce((top, p) => (p.coverage > top.coverage ? p : top));
    return lead.scored.filter((s) => s.segment.kind === "sentence").slice(0, 1);
  }
  const chosen: Scored[] = [];
  for (const s of ranked) {
    if (chosen.length >= LIMITS.sentences || s.score < LIMITS.relativeScore * best.score) break;
    const from = new Set(chosen.map((c) => c.passage));
    if (from.size < LIMITS.passages || from.has(s.passage)) chosen.push(s);
  }
  const codeName = topCodeName(ranked.filter((s) => s.score >= LIMITS.codeNameVote * best.score));
  if (codeName !== undefined && !chosen.some((s) => s.segment.text.includes(codeName))) {
    const naming = ranked.find((s) => s.segment.text.includes(`\`${codeName}\``));
    if (naming !== undefined) chosen.splice(Math.min(chosen.length, LIMITS.sentences - 1), 1, naming);
  }
  const quoted = withContext(chosen, best, passages, language);
  if (wantsCode(question) && !quoted.some((s) => s.segment.kind === "code")) {
    const example = quotable
      .flatMap((p) =>
        p.scored.filter((s) => s.segment.kind === "code" && s.segment.text.length <= LIMITS.codeChars),
      )
      .sort((a, b) => b.score - a.score || a.passage - b.passage || a.order - b.order)[0];
    if (example !== undefined) return [...quoted, example];
  }
  return quoted;
};
