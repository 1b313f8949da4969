/**
 * Picks what an extractive answer quotes. The lead passage is the one whose text and heading
 * cover most of the question's weight (retrieval order breaking near-ties); its place
 * ("Title › heading", which in API docs names the function or clause) opens the answer,
 * followed by its best sentences, table rows or list items, and a whole code block when the
 * question asks how. Scoring: each question term found adds its rarity across the passages;
 * code names the question writes (`fs.writeFile`) add a bonus; a passage's opening sentence
 * (where docs define things), instructions ("Use ...", "To ...", "Returns ...") and sentences
 * naming their section's subject gain, bare parameter-type lines lose. A second passage is
 * quoted only when its best sentence adds question words the lead left out; the other
 * matching sections are named in a closing "See also" line. Nothing is cut inside a word,
 * and code is never cut.
 */
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { type Segment, segments } from "./segments.ts";
import { identifiers, terms, wantsCode } from "./terms.ts";

export interface Piece {
  /** "place": where the next pieces come from; "related": another section found, named with its [n]. */
  readonly kind: Segment["kind"] | "place" | "related";
  readonly text: string;
  /** 1-based passage number, as cited. */
  readonly citation: number;
}

export const LIMITS = {
  sentencesPerPassage: 3,
  /** Other matching sections named at the end ("See also"). */
  related: 2,
  answerChars: 1400,
  sentenceChars: 400,
  codeChars: 900,
  /** Share of the question's weight a passage must cover to be quoted at all. */
  minCoverage: 0.1,
  /** Share of the lead's best sentence score a sentence needs to be quoted beside it. */
  relativeScore: 0.5,
} as const;

const IDENTIFIER_BONUS = 2;
/** Docs define a thing in a passage's first sentence, and instruct with imperatives. */
const OPENING_FACTOR = 1.3;
const INSTRUCTION_FACTOR = 1.15;
const PARAMETER_LINE_FACTOR = 0.3;
/** A sentence naming its section's subject (words of its own heading) gains up to half. */
const SUBJECT_ECHO = 0.5;
/** Sentences with inline code name the thing to use. */
const CODE_FACTOR = 1.1;
/** The lead passage: retrieval order breaks near-ties, each rank down costs a tenth. */
const RANK_PENALTY = 0.1;
const INSTRUCTION =
  /^(use|to|call|set|pass|run|create|returns?|specif|add|enable|the\s+\S+\s+(method|function|option|clause|parameter|command))\b/i;
const PARAMETER_LINE = /^- `[^`]+` \{[^}]*\}/;

/** Shortens a sentence at a word boundary (never inside a word). */
const fitSentence = (text: string): string => {
  if (text.length <= LIMITS.sentenceChars) return text;
  const cut = text.slice(0, LIMITS.sentenceChars);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1)).trimEnd()} …`;
};

interface Scored {
  readonly segment: Segment;
  readonly score: number;
  readonly terms: ReadonlySet<string>;
}

/** "Title › heading" of a passage: where the quoted text sits, usually naming the API. */
export const placeName = (chunk: Pick<RetrievedChunk, "title" | "heading">): string => {
  const own = chunk.heading.split(" > ").pop() ?? "";
  return [chunk.title, own].filter((part) => part !== "").join(" › ");
};

/** The quoted pieces: per quoted passage its place, sentences in reading order, maybe one code block. */
export const selectPieces = (
  question: string,
  chunks: ReadonlyArray<RetrievedChunk>,
): ReadonlyArray<Piece> => {
  const asked = [...new Set(terms(question))];
  const named = identifiers(question);
  if (chunks.length === 0 || (asked.length === 0 && named.length === 0)) return [];
  const passages = chunks.map((chunk) => {
    const parts = segments(chunk.text).map((segment) => ({ segment, terms: new Set(terms(segment.text)) }));
    const context = new Set(terms(`${chunk.title} ${chunk.heading}`));
    return { chunk, parts, context, place: `${chunk.title} ${chunk.heading}`.toLowerCase() };
  });
  const units = passages.flatMap((p) => p.parts.map((part) => part.terms));
  const weight = new Map(
    asked.map((term) => [term, Math.log(1 + units.length / (1 + units.filter((u) => u.has(term)).length))]),
  );
  const total = [...weight.values()].reduce((sum, w) => sum + w, 0) + IDENTIFIER_BONUS * named.length;
  const coverageOf = (found: (term: string) => boolean, text: string) =>
    (asked.reduce((sum, term) => sum + (found(term) ? weight.get(term)! : 0), 0) +
      IDENTIFIER_BONUS * named.filter((id) => text.includes(id)).length) /
    Math.max(total, 1e-9);

  const scoredPassages = passages.map((p, index) => {
    const whole = p.parts
      .map((part) => part.segment.text)
      .join(" ")
      .toLowerCase();
    const coverage = coverageOf(
      (t) => p.context.has(t) || p.parts.some((part) => part.terms.has(t)),
      `${p.place} ${whole}`,
    );
    // A passage whose title or heading names the question's words is about them.
    const headingMatch = coverageOf((t) => p.context.has(t), p.place);
    // A sentence that names its section's subject defines or instructs about it.
    const subject = [...new Set(terms(p.chunk.heading.split(" > ").pop() ?? ""))];
    const scored: Scored[] = p.parts.map(({ segment, terms: own }) => {
      const lower = segment.text.toLowerCase();
      let score = coverageOf((t) => own.has(t), lower);
      const echo = subject.length === 0 ? 0 : subject.filter((t) => own.has(t)).length / subject.length;
      score *= 1 + SUBJECT_ECHO * echo;
      if (segment.text.includes("`")) score *= CODE_FACTOR;
      if (segment.kind === "sentence") {
        if (segment.position === 0) score *= OPENING_FACTOR;
        if (INSTRUCTION.test(segment.text)) score *= INSTRUCTION_FACTOR;
        if (PARAMETER_LINE.test(segment.text)) score *= PARAMETER_LINE_FACTOR;
      }
      return { segment, score, terms: own };
    });
    return {
      index,
      chunk: p.chunk,
      context: p.context,
      coverage,
      scored,
      ranked: (coverage + headingMatch) * (1 - RANK_PENALTY * index),
    };
  });
  type Passage = (typeof scoredPassages)[number];
  const bestSentence = (passage: Passage) =>
    Math.max(0, ...passage.scored.filter((s) => s.segment.kind === "sentence").map((s) => s.score));
  const code = wantsCode(question);
  /** A passage's best sentences (reading order) and, for a "how" question, its best small code block. */
  const choose = (passage: Passage, sentencesWanted: number): ReadonlyArray<Scored> => {
    const best = bestSentence(passage);
    const sentences = passage.scored
      .filter((s) => s.segment.kind === "sentence" && s.score > 0 && s.score >= LIMITS.relativeScore * best)
      .sort((a, b) => b.score - a.score || a.segment.position - b.segment.position)
      .slice(0, sentencesWanted);
    const example = code
      ? passage.scored
          .filter((s) => s.segment.kind === "code" && s.segment.text.length <= LIMITS.codeChars)
          .sort((a, b) => b.score - a.score || a.segment.position - b.segment.position)[0]
      : undefined;
    return [...sentences, ...(example === undefined ? [] : [example])].sort(
      (a, b) => a.segment.position - b.segment.position,
    );
  };
  const lead = scoredPassages.reduce((best, p) => (p.ranked > best.ranked ? p : best), scoredPassages[0]!);
  if (lead.coverage < LIMITS.minCoverage) return [];
  const chosenFromLead = choose(lead, LIMITS.sentencesPerPassage);
  // A lead chosen for its heading may have no sentence with the question's words: its opening one says what it is.
  const opening = lead.scored.filter((s) => s.segment.kind === "sentence").slice(0, 1);
  const leadChosen = chosenFromLead.length > 0 ? chosenFromLead : opening;
  const covered = new Set([...lead.context, ...leadChosen.flatMap((s) => [...s.terms])]);
  const uncovered = (terms: ReadonlySet<string>) =>
    asked.reduce((sum, t) => sum + (terms.has(t) && !covered.has(t) ? weight.get(t)! : 0), 0) /
    Math.max(total, 1e-9);
  // Another passage is quoted only when its best sentence adds what the lead left out.
  const second = scoredPassages
    .filter((p) => p !== lead && p.coverage >= LIMITS.minCoverage)
    .map((p) => ({
      p,
      top: p.scored.filter((s) => s.segment.kind === "sentence").sort((a, b) => b.score - a.score)[0],
    }))
    .filter(
      ({ top }) => top !== undefined && top.score >= 0.8 * bestSentence(lead) && uncovered(top.terms) >= 0.25,
    )
    .map(({ p }) => p)[0];
  const pieces: Piece[] = [];
  let chars = 0;
  const quote = (passage: Passage, chosen: ReadonlyArray<Scored>) => {
    if (chosen.length === 0) return;
    const citation = passage.index + 1;
    pieces.push({ kind: "place", text: placeName(passage.chunk), citation });
    chosen.forEach(({ segment }, i) => {
      const text = segment.kind === "code" ? segment.text : fitSentence(segment.text);
      // The first piece is always quoted; the rest only while the answer stays short.
      if (i > 0 && segment.kind === "sentence" && chars + text.length > LIMITS.answerChars) return;
      pieces.push({ kind: segment.kind, text, citation });
      if (segment.kind === "sentence") chars += text.length;
    });
  };
  quote(lead, leadChosen);
  if (second !== undefined && chars < LIMITS.answerChars)
    quote(
      second,
      choose(second, 1).filter((s) => s.segment.kind === "sentence"),
    );
  // The other sections that match, by name: a reader who meant a neighbouring API sees it.
  const places = new Set(pieces.filter((piece) => piece.kind === "place").map((piece) => piece.text));
  let related = 0;
  for (const passage of scoredPassages) {
    const place = placeName(passage.chunk);
    if (related >= LIMITS.related || passage.coverage < LIMITS.minCoverage || passage.chunk.heading === "")
      continue;
    if (places.has(place) || pieces.some((piece) => piece.citation === passage.index + 1)) continue;
    places.add(place);
    related += 1;
    pieces.push({ kind: "related", text: place, citation: passage.index + 1 });
  }
  return pieces;
};

/** Pieces as answer text: "Place:" on its own line, each sentence with its [n], code blocks whole with [n] after. */
export const renderPieces = (pieces: ReadonlyArray<Piece>): ReadonlyArray<string> =>
  pieces.map((piece, i) => {
    const next = pieces[i + 1];
    if (piece.kind === "place") return `${i === 0 ? "" : "\n\n"}${piece.text}:\n`;
    if (piece.kind === "related") {
      const first = pieces[i - 1]?.kind !== "related";
      return `${first ? "\n\nSee also: " : "; "}${piece.text} [${piece.citation}]`;
    }
    if (piece.kind === "code") {
      const before = pieces[i - 1]?.kind === "sentence" ? "\n\n" : "";
      return `${before}${piece.text}\n[${piece.citation}]${next?.kind === "sentence" ? "\n\n" : ""}`;
    }
    return `${piece.text} [${piece.citation}]${next?.kind === "sentence" ? " " : ""}`;
  });
