/**
 * How much each sentence, list item, table row and code block of the retrieved passages says
 * about a question. Terms come from the same analysis as retrieval (identifiers whole and in
 * parts, Porter stems), so what ranked a passage also ranks its sentences. Each question term
 * found adds its rarity across the passages; code names the question writes (`fs.writeFile`)
 * add a bonus; the section's title and heading lend their words to each of its sentences at
 * a discount. Docs define a thing in a passage's opening sentence or a definition entry
 * ("`CONCURRENTLY`: When this option is used, ..."), instruct with imperatives ("Use ...",
 * "Returns ..."), and name their section's subject: those gain; bare parameter-type lines
 * lose. A sentence is finally weighed by its passage: retrieval rank, and how much of the
 * question the passage as a whole covers.
 *
 * Which passages are about the question at all is weighed apart, by `share`: the terms the
 * passages hold weigh by their rarity among the sentences read with their places, so a word
 * every page's title repeats (the product's name, "lock" on a bike lock's site) weighs little,
 * and a passage holding only such words holds a small share of what the best one holds.
 */
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { analysisFor } from "../shared/text-analysis/analyze.ts";
import { type Segment, segments } from "./segments.ts";
import { identifiers } from "./terms.ts";

export interface Scored {
  readonly segment: Segment;
  readonly score: number;
  readonly terms: ReadonlySet<string>;
  /** Index of its passage (retrieval order), and its place among the passage's segments. */
  readonly passage: number;
  readonly order: number;
  /** Its `share` of the question, read with its passage's title and heading (see ScoredPassage). */
  readonly share: number;
  /** Its `share` of the question in its own words, without its passage's title and heading. */
  readonly ownShare: number;
}

export interface ScoredPassage {
  readonly index: number;
  readonly chunk: RetrievedChunk;
  /** Share of the question's weight found in the passage's text, title or heading (0..1). */
  readonly coverage: number;
  /**
   * Its share (0..1) of the question's terms (and code names) found in any of the passages,
   * each weighed by its rarity among their sentences read with their titles and headings.
   */
  readonly share: number;
  readonly scored: ReadonlyArray<Scored>;
}

const IDENTIFIER_BONUS = 2;
const OPENING_FACTOR = 1.3;
const INSTRUCTION_FACTOR = 1.15;
const DEFINITION_FACTOR = 1.2;
const PARAMETER_LINE_FACTOR = 0.3;
/** Sentences with inline code name the thing to use. */
const CODE_FACTOR = 1.1;
/** A sentence naming its section's subject (words of its own heading) gains up to half. */
const SUBJECT_ECHO = 0.5;
/** Share of its weight a question term in a passage's title or heading lends each of its sentences. */
const CONTEXT_SHARE = 0.3;
/** Each rank down in retrieval order costs a tenth. */
const RANK_PENALTY = 0.1;
/** The floor of the passage weight, to which its coverage and heading match add. */
const PASSAGE_FLOOR = 0.5;

const INSTRUCTION =
  /^(use|to|call|set|pass|run|create|returns?|specif|add|enable|the\s+\S+\s+(method|function|option|clause|parameter|command))\b/i;
const PARAMETER_LINE = /^- `[^`]+` \{[^}]*\}/;
const DEFINITION = /^`[^`]+`(?:, `[^`]+`)*: \S/;

interface Read {
  readonly parts: ReadonlyArray<{ readonly terms: ReadonlySet<string> }>;
  readonly context: ReadonlySet<string>;
  /** Title, heading and text, lower-cased: where a code name is looked for. */
  readonly text: string;
}

/**
 * The `share` of the question a set of its terms (and code names) holds: each weighed by its
 * rarity among the passages' sentences read with their places, over the weight of all the
 * passages hold.
 */
const shareWeigher = (
  asked: ReadonlyArray<string>,
  named: ReadonlyArray<string>,
  passages: ReadonlyArray<Read>,
): ((found: ReadonlySet<string>) => number) => {
  const reads = passages.flatMap((p) => p.parts.map((part) => ({ own: part.terms, context: p.context })));
  const rarity = (t: string) =>
    Math.log(1 + reads.length / (1 + reads.filter((r) => r.own.has(t) || r.context.has(t)).length));
  const weigh = (found: ReadonlySet<string>) =>
    [...found].reduce((sum, t) => sum + (named.includes(t) ? IDENTIFIER_BONUS : rarity(t)), 0);
  const all = new Set([
    ...asked.filter((t) => reads.some((r) => r.own.has(t) || r.context.has(t))),
    ...named.filter((id) => passages.some((p) => p.text.includes(id))),
  ]);
  const total = weigh(all);
  return (found) => (total === 0 ? 0 : weigh(found) / total);
};

/** The question's terms, and every passage with its segments scored; empty when the question has no content words. */
export const scorePassages = (
  question: string,
  chunks: ReadonlyArray<RetrievedChunk>,
  language = "en",
): ReadonlyArray<ScoredPassage> => {
  // Cut as retrieval cut them: the docs' language.
  const { terms } = analysisFor(language);
  const asked = [...new Set(terms(question))];
  const named = identifiers(question);
  if (asked.length === 0 && named.length === 0) return [];
  const passages = chunks.map((chunk) => ({
    chunk,
    parts: segments(chunk.text).map((segment) => ({ segment, terms: new Set(terms(segment.text)) })),
    context: new Set(terms(`${chunk.title} ${chunk.heading}`)),
    place: `${chunk.title} ${chunk.heading}`.toLowerCase(),
    text: `${chunk.title} ${chunk.heading} ${chunk.text}`.toLowerCase(),
  }));
  const units = passages.flatMap((p) => p.parts.map((part) => part.terms));
  const weight = new Map(
    asked.map((term) => [term, Math.log(1 + units.length / (1 + units.filter((u) => u.has(term)).length))]),
  );
  const total = [...weight.values()].reduce((sum, w) => sum + w, 0) + IDENTIFIER_BONUS * named.length;
  /** Share of the question's weight: the terms `found` says are there, and the named identifiers in `text`. */
  const share = (found: (term: string) => boolean, text: string) =>
    (asked.reduce((sum, term) => sum + (found(term) ? weight.get(term)! : 0), 0) +
      IDENTIFIER_BONUS * named.filter((id) => text.includes(id)).length) /
    Math.max(total, 1e-9);

  const shareOf = shareWeigher(asked, named, passages);
  /** The question's terms and code names found in `own` terms, the place's, or `text`. */
  const found = (own: (t: string) => boolean, context: ReadonlySet<string>, text: string) =>
    new Set([...asked.filter((t) => own(t) || context.has(t)), ...named.filter((id) => text.includes(id))]);
  return passages.map((p, index) => {
    const whole = p.parts.map((part) => part.segment.text.toLowerCase()).join(" ");
    const coverage = share(
      (t) => p.context.has(t) || p.parts.some((part) => part.terms.has(t)),
      `${p.place} ${whole}`,
    );
    const headingMatch = share((t) => p.context.has(t), p.place);
    const passageWeight = (1 - RANK_PENALTY * index) * (PASSAGE_FLOOR + coverage + headingMatch);
    const subject = [...new Set(terms(p.chunk.heading.split(" > ").pop() ?? ""))];
    const scored = p.parts.map(({ segment, terms: own }, order): Scored => {
      let score =
        share((t) => own.has(t), segment.text.toLowerCase()) +
        CONTEXT_SHARE * share((t) => p.context.has(t) && !own.has(t), "");
      const echo = subject.length === 0 ? 0 : subject.filter((t) => own.has(t)).length / subject.length;
      score *= 1 + SUBJECT_ECHO * echo;
      if (segment.text.includes("`")) score *= CODE_FACTOR;
      if (segment.kind === "sentence") {
        if (segment.position === 0) score *= OPENING_FACTOR;
        if (INSTRUCTION.test(segment.text)) score *= INSTRUCTION_FACTOR;
        if (DEFINITION.test(segment.text)) score *= DEFINITION_FACTOR;
        if (PARAMETER_LINE.test(segment.text)) score *= PARAMETER_LINE_FACTOR;
      }
      const held = found((t) => own.has(t), p.context, `${p.place} ${segment.text.toLowerCase()}`);
      return {
        segment,
        score: score * passageWeight,
        terms: own,
        passage: index,
        order,
        share: shareOf(held),
        ownShare: shareOf(found((t) => own.has(t), new Set(), segment.text.toLowerCase())),
      };
    });
    const held = found((t) => p.parts.some((part) => part.terms.has(t)), p.context, p.text);
    return { index, chunk: p.chunk, coverage, share: shareOf(held), scored };
  });
};
