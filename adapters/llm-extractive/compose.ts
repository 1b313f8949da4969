/**
 * An extractive answer's text from what choose.ts picked: each quoted passage opens with its
 * place ("Title › heading", which in API docs names the function or clause), then its pieces in
 * reading order, the passages in retrieval order. Other related sections are named in a
 * closing "See also" line; a passage that is not related (choose.ts) is neither quoted nor
 * named. The answer lists as its sources the passages it cites, in the order first cited, then
 * the other related ones, and its [n] number that list; unrelated passages are not listed.
 * Nothing is cut inside a word, and code is never cut.
 */
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { choose, LIMITS, related } from "./choose.ts";
import { type ScoredPassage, scorePassages } from "./scoring.ts";
import type { Segment } from "./segments.ts";

export interface Piece {
  /** "place": where the next pieces come from; "related": another section found, named with its [n]. */
  readonly kind: Segment["kind"] | "place" | "related";
  readonly text: string;
  /** 1-based number of its passage among the listed sources, as cited. */
  readonly citation: number;
}

/** What the answer quotes, and the passages it lists (indexes into the chunks; [n] is the n-th). */
export interface Selection {
  readonly pieces: ReadonlyArray<Piece>;
  readonly listed: ReadonlyArray<number>;
}

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

/** Per quoted passage its place and its chosen pieces, then "See also"; cited by passage index + 1 until numbered. */
const quotedPieces = (
  question: string,
  passages: ReadonlyArray<ScoredPassage>,
  language: string | undefined,
): ReadonlyArray<Piece> => {
  const chosen = choose(question, passages, language);
  const pieces: Piece[] = [];
  let chars = 0;
  // In retrieval order: the retriever weighs each term by its rarity in all the docs, so its
  // order tells better than one sentence's words which passage answers (on the eval sets the
  // expected page led more often so than when the best sentence's passage led).
  const order = [...new Set(chosen.map((s) => s.passage))].sort((a, b) => a - b);
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
  // Nothing quoted: nothing to name beside it either (the answer declines).
  if (pieces.length === 0) return pieces;
  // The other related sections, by name: a reader who meant a neighbouring API sees it.
  const places = new Set(pieces.filter((piece) => piece.kind === "place").map((piece) => piece.text));
  let named = 0;
  for (const passage of passages) {
    const place = placeName(passage.chunk);
    if (named >= LIMITS.related || !related(passage, passages) || passage.chunk.heading === "") continue;
    if (places.has(place) || pieces.some((piece) => piece.citation === passage.index + 1)) continue;
    places.add(place);
    named += 1;
    pieces.push({ kind: "related", text: place, citation: passage.index + 1 });
  }
  return pieces;
};

/** The pieces to quote and the sources to list, the pieces cited by their place in that list. */
export const selectPieces = (
  question: string,
  chunks: ReadonlyArray<RetrievedChunk>,
  language?: string | undefined,
): Selection => {
  const passages = scorePassages(question, chunks, language);
  const pieces = quotedPieces(question, passages, language);
  if (pieces.length === 0) return { pieces, listed: [] };
  const cited = pieces.map((piece) => piece.citation - 1);
  const listed = [
    ...new Set([...cited, ...passages.filter((p) => related(p, passages)).map((p) => p.index)]),
  ];
  const number = new Map(listed.map((index, i) => [index, i + 1]));
  return {
    pieces: pieces.map((piece) => ({ ...piece, citation: number.get(piece.citation - 1)! })),
    listed,
  };
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
