/**
 * Picks the passages' most relevant sentences for a question. Scoring: every question term
 * found in a sentence adds its rarity across the passages (rare terms say more), terms found
 * only in the passage's title/heading add half, every code identifier the question names
 * adds a bonus, and earlier passages (better retrieval rank) win ties. Only sentences that
 * cover enough of the question, and score close to the best one, are quoted.
 */
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { type Segment, segments } from "./segments.ts";
import { identifiers, terms, wantsCode } from "./terms.ts";

export interface Piece {
  readonly kind: Segment["kind"];
  readonly text: string;
  /** 1-based passage number, as cited. */
  readonly citation: number;
}

export const LIMITS = {
  sentences: 4,
  answerChars: 1200,
  sentenceChars: 400,
  codeChars: 1500,
  /** Share of the question's term weight a sentence must cover to be quoted. */
  minCoverage: 0.34,
  /** Share of the best piece's score another piece needs to be quoted beside it. */
  relativeScore: 0.6,
} as const;

interface Candidate extends Piece {
  readonly position: number;
  readonly score: number;
}

const IDENTIFIER_BONUS = 2;

const capSentence = (text: string): string =>
  text.length <= LIMITS.sentenceChars ? text : `${text.slice(0, LIMITS.sentenceChars).trimEnd()}…`;

const HEADING_SHARE = 0.5;

/** The quoted pieces, in passage order then reading order; empty when nothing is relevant. */
export const selectPieces = (
  question: string,
  chunks: ReadonlyArray<RetrievedChunk>,
): ReadonlyArray<Piece> => {
  const asked = [...new Set(terms(question))];
  const named = identifiers(question);
  const all = chunks.flatMap((chunk, index) => {
    // A passage's title and heading say what its sentences are about ("fsPromises.readFile").
    const context = `${chunk.title} ${chunk.heading}`;
    const contextTerms = new Set(terms(context));
    const contextNamed = named.filter((id) => context.toLowerCase().includes(id)).length;
    return segments(chunk.text).map((segment) => ({
      segment,
      index,
      terms: new Set(terms(segment.text)),
      contextTerms,
      contextNamed,
    }));
  });
  if (all.length === 0 || (asked.length === 0 && named.length === 0)) return [];
  const weight = new Map(
    asked.map((term) => {
      const df = all.filter((entry) => entry.terms.has(term)).length;
      return [term, Math.log(1 + all.length / (1 + df))];
    }),
  );
  const total = [...weight.values()].reduce((sum, w) => sum + w, 0);
  const code = wantsCode(question);
  const scored = all.map((entry) => {
    const lower = entry.segment.text.toLowerCase();
    let own = 0;
    let context = 0;
    for (const term of asked) {
      const w = weight.get(term) ?? 0;
      if (entry.terms.has(term)) own += w;
      else if (entry.contextTerms.has(term)) context += HEADING_SHARE * w;
    }
    const namedHere = named.filter((id) => lower.includes(id)).length;
    const coverage = total === 0 ? 0 : (own + context) / total;
    // A sentence must say something about the question itself; its heading only adds weight.
    const relevant = namedHere > 0 || (own > 0 && coverage >= LIMITS.minCoverage);
    const bonus = IDENTIFIER_BONUS * (namedHere + HEADING_SHARE * entry.contextNamed);
    return { ...entry, relevant, score: (own + context + bonus) * (1 - 0.05 * entry.index), namedHere };
  });
  const best = Math.max(0, ...scored.filter((entry) => entry.relevant).map((entry) => entry.score));
  const candidates: Candidate[] = [];
  for (const { segment, index, relevant, score, namedHere } of scored) {
    // Weak matches next to a strong one are noise: keep only those close to the best.
    if (!relevant || score < LIMITS.relativeScore * best) continue;
    if (segment.kind === "code" && (segment.text.length > LIMITS.codeChars || (!code && namedHere === 0)))
      continue;
    const text = segment.kind === "code" ? segment.text : capSentence(segment.text);
    candidates.push({ kind: segment.kind, text, citation: index + 1, position: segment.position, score });
  }
  candidates.sort((a, b) => b.score - a.score || a.citation - b.citation || a.position - b.position);
  const chosen: Candidate[] = [];
  const seen = new Set<string>();
  let chars = 0;
  let sentences = 0;
  let hasCode = false;
  for (const candidate of candidates) {
    const key = candidate.text.replace(/\s+/g, " ").toLowerCase();
    if (seen.has(key)) continue;
    const isCode = candidate.kind === "code";
    if (isCode ? hasCode : sentences >= LIMITS.sentences) continue;
    // The best piece is always taken; later ones only while the answer stays short.
    if (chosen.length > 0 && chars + candidate.text.length > LIMITS.answerChars) continue;
    chosen.push(candidate);
    seen.add(key);
    chars += candidate.text.length;
    if (isCode) hasCode = true;
    else sentences += 1;
  }
  return chosen
    .sort((a, b) => a.citation - b.citation || a.position - b.position)
    .map(({ kind, text, citation }) => ({ kind, text, citation }));
};

/** Pieces as answer text: sentences each followed by [n], code blocks whole with [n] after. */
export const renderPieces = (pieces: ReadonlyArray<Piece>): ReadonlyArray<string> =>
  pieces.map((piece, i) => {
    const previous = pieces[i - 1];
    const separator = i === 0 ? "" : piece.kind === "code" || previous?.kind === "code" ? "\n\n" : " ";
    return piece.kind === "code"
      ? `${separator}${piece.text}\n[${piece.citation}]`
      : `${separator}${piece.text} [${piece.citation}]`;
  });

/** The plain "not covered" answer, naming the closest sections so the reader can look. */
export const noAnswer = (chunks: ReadonlyArray<RetrievedChunk>): string => {
  const closest = chunks
    .slice(0, 3)
    .map(
      (chunk, i) => `${[chunk.title, chunk.heading].filter((part) => part !== "").join(" > ")} [${i + 1}]`,
    );
  return `The documentation does not seem to cover this question. The closest sections I found are: ${closest.join("; ")}.`;
};
