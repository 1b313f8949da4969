/**
 * Picks what an extractive answer quotes, from the scored passages (scoring.ts). The best
 * sentences over all passages are quoted (at most four, from at most two passages, each
 * scoring at least half the best), each passage opening with its place ("Title › heading",
 * which in API docs names the function or clause). What a quoted sentence leads to comes with
 * it: the example or list it introduces ("... looks like:") and a following sentence that
 * names the thing ("This is done with `X`"). The answer names the thing to use: when the code
 * name the relevant sentences mention most is not quoted, its best sentence is. A "how"
 * question also gets the best code block (up to 1200 characters) of any matching passage,
 * whole, under that passage's place: an example is often a section of its own. The other matching
 * sections are named in a closing "See also" line. Nothing is cut inside a word, and code is
 * never cut.
 */
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { type Scored, type ScoredPassage, scorePassages } from "./scoring.ts";
import type { Segment } from "./segments.ts";
import { wantsCode } from "./terms.ts";

export interface Piece {
  /** "place": where the next pieces come from; "related": another section found, named with its [n]. */
  readonly kind: Segment["kind"] | "place" | "related";
  readonly text: string;
  /** 1-based passage number, as cited. */
  readonly citation: number;
}

export const LIMITS = {
  /** Sentences chosen by score, from at most `passages` passages... */
  sentences: 4,
  passages: 2,
  /** ...and with what they lead to, at most this many in all. */
  sentencesWithFollowers: 5,
  /** Other matching sections named at the end ("See also"). */
  related: 2,
  answerChars: 1400,
  sentenceChars: 400,
  codeChars: 1200,
  /** Share of the question's weight a passage must cover to be quoted at all. */
  minCoverage: 0.1,
  /** Share of the best sentence's score a sentence needs to be quoted beside it. */
  relativeScore: 0.5,
  /** Sentences scoring at least this share of the best one vote for the code name the answer shows. */
  codeNameVote: 0.3,
} as const;

/** A sentence that goes on from the one before it. */
const CONTINUATION = /^(this|these|that|it|such|to do (so|this)|for (example|instance))\b/i;

/** Shortens a sentence at a word boundary (never inside a word). */
const fitSentence = (text: string): string => {
  if (text.length <= LIMITS.sentenceChars) return text;
  const cut = text.slice(0, LIMITS.sentenceChars);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1)).trimEnd()} …`;
};

/** "Title › heading" of a passage: where the quoted text sits, usually naming the API. */
export const placeName = (chunk: Pick<RetrievedChunk, "title" | "heading">): string => {
  const own = chunk.heading.split(" > ").pop() ?? "";
  return [chunk.title, own].filter((part) => part !== "").join(" › ");
};

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

/** The sentences (and maybe code) to quote, before they are put in passage order. */
const choose = (question: string, passages: ReadonlyArray<ScoredPassage>): ReadonlyArray<Scored> => {
  const quotable = passages.filter((p) => p.coverage >= LIMITS.minCoverage);
  if (quotable.length === 0) return [];
  const ranked = quotable
    .flatMap((p) => p.scored.filter((s) => s.segment.kind === "sentence" && s.score > 0))
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
  for (const s of [...chosen]) {
    const next = passages[s.passage]!.scored[s.order + 1];
    if (next === undefined || chosen.includes(next)) continue;
    if (chosen.filter((c) => c.segment.kind === "sentence").length >= LIMITS.sentencesWithFollowers) break;
    const introduces =
      s.segment.text.endsWith(":") &&
      (next.segment.kind === "sentence" || next.segment.text.length <= LIMITS.codeChars);
    const continues =
      next.segment.kind === "sentence" &&
      CONTINUATION.test(next.segment.text) &&
      next.segment.text.includes("`");
    if (introduces || continues) chosen.push(next);
  }
  if (wantsCode(question) && !chosen.some((s) => s.segment.kind === "code")) {
    const example = quotable
      .flatMap((p) =>
        p.scored.filter((s) => s.segment.kind === "code" && s.segment.text.length <= LIMITS.codeChars),
      )
      .sort((a, b) => b.score - a.score || a.passage - b.passage || a.order - b.order)[0];
    if (example !== undefined) chosen.push(example);
  }
  return chosen;
};

/** The quoted pieces: per quoted passage its place, then its chosen pieces in reading order; then "See also". */
export const selectPieces = (
  question: string,
  chunks: ReadonlyArray<RetrievedChunk>,
): ReadonlyArray<Piece> => {
  const passages = scorePassages(question, chunks);
  const chosen = choose(question, passages);
  const pieces: Piece[] = [];
  let chars = 0;
  const order = [...new Set(chosen.map((s) => s.passage))];
  for (const index of order) {
    const citation = index + 1;
    const quoted: Piece[] = [];
    for (const { segment } of chosen.filter((s) => s.passage === index).sort((a, b) => a.order - b.order)) {
      const text = segment.kind === "code" ? segment.text : fitSentence(segment.text);
      // The first sentence is always quoted; the rest only while the answer stays short.
      if (segment.kind === "sentence" && chars > 0 && chars + text.length > LIMITS.answerChars) continue;
      quoted.push({ kind: segment.kind, text, citation });
      if (segment.kind === "sentence") chars += text.length;
    }
    // A passage all of whose sentences missed the budget is not opened at all.
    if (quoted.length > 0)
      pieces.push({ kind: "place", text: placeName(passages[index]!.chunk), citation }, ...quoted);
  }
  // The other sections that match, by name: a reader who meant a neighbouring API sees it.
  const places = new Set(pieces.filter((piece) => piece.kind === "place").map((piece) => piece.text));
  let related = 0;
  for (const passage of passages) {
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
