/**
 * Packs a section's blocks into chunks of at most `maxTokens` (a code block larger than that
 * becomes one oversized chunk: code is never cut). Each chunk after the first in a section
 * repeats the last sentences of the previous one, up to `overlapTokens`, so an answer that
 * straddles a cut is still found whole in one of them.
 */
import type { Block } from "./parsed.ts";

export interface ChunkingOptions {
  readonly maxTokens: number;
  readonly overlapTokens: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { maxTokens: 300, overlapTokens: 40 };

/** A rough token count in the spirit of BPE tokenizers: words and punctuation marks. */
export const countTokens = (text: string): number =>
  text.match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu)?.length ?? 0;

interface Unit {
  readonly text: string;
  readonly tokens: number;
  readonly code: boolean;
  /** Joins this unit to the one before it in the same chunk. */
  readonly separator: string;
}

const unit = (text: string, separator: string, code = false): Unit => ({
  text,
  tokens: countTokens(text),
  code,
  separator,
});

const sentences = (text: string): ReadonlyArray<string> =>
  text.split(/(?<=[.!?])\s+(?=[A-Z`*_("'[])/).filter((sentence) => sentence !== "");

/** Word windows, the last resort for a sentence that alone is too long. */
const wordWindows = (text: string, maxTokens: number): ReadonlyArray<string> => {
  const windows: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const word of text.split(/\s+/)) {
    const size = countTokens(word);
    if (current.length > 0 && tokens + size > maxTokens) {
      windows.push(current.join(" "));
      current = [];
      tokens = 0;
    }
    current.push(word);
    tokens += size;
  }
  if (current.length > 0) windows.push(current.join(" "));
  return windows;
};

/** A block that is a list or a table: its first line is an item or a row. */
const LIST_OR_TABLE = /^\s*(?:[-*+]\s|\d+[.)]\s|\|)/;

/** A sentence too long for a chunk alone is cut into word windows (the last resort). */
const fitted = (sentence: string, maxTokens: number): ReadonlyArray<string> =>
  countTokens(sentence) <= maxTokens ? [sentence] : wordWindows(sentence, maxTokens);

/**
 * The items of a list or the rows of a table, each with its indented continuation lines: a
 * long list is cut between items, never inside one.
 */
const itemsOf = (text: string): ReadonlyArray<string> => {
  const items: string[] = [];
  for (const line of text.split("\n")) {
    if (items.length > 0 && /^\s+\S/.test(line) && !LIST_OR_TABLE.test(line))
      items[items.length - 1] += `\n${line}`;
    else items.push(line);
  }
  return items;
};

/**
 * A paragraph too long for one chunk becomes its sentences. A hard-wrapped paragraph (Markdown
 * or text wrapped at 80 columns) is joined first, so a cut, and the overlap that repeats the
 * text before it, always starts at a sentence, never at a wrapped line in mid-sentence.
 */
const proseUnits = (text: string, maxTokens: number): ReadonlyArray<Unit> => {
  if (countTokens(text) <= maxTokens) return [unit(text, "\n\n")];
  if (LIST_OR_TABLE.test(text))
    return itemsOf(text).flatMap((item, i) =>
      (countTokens(item) <= maxTokens ? [item] : sentences(item).flatMap((s) => fitted(s, maxTokens))).map(
        (piece, j) => unit(piece, i === 0 && j === 0 ? "\n\n" : j === 0 ? "\n" : " "),
      ),
    );
  const joined = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
  return sentences(joined)
    .flatMap((sentence) => fitted(sentence, maxTokens))
    .map((piece, i) => unit(piece, i === 0 ? "\n\n" : " "));
};

/** The trailing sentences of `units` that fit in `budget` tokens; code is never repeated. */
const overlapTail = (units: ReadonlyArray<Unit>, budget: number): Unit[] => {
  const tail: Unit[] = [];
  let left = budget;
  for (let i = units.length - 1; i >= 0 && left > 0; i--) {
    const candidate = units[i]!;
    if (candidate.code) break;
    if (candidate.tokens <= left) {
      tail.unshift(candidate);
      left -= candidate.tokens;
      continue;
    }
    const parts = sentences(candidate.text);
    for (let j = parts.length - 1; j >= 0; j--) {
      const part = unit(parts[j]!, " ");
      if (part.tokens > left) break;
      tail.unshift(part);
      left -= part.tokens;
    }
    break;
  }
  return tail;
};

const join = (units: ReadonlyArray<Unit>): string =>
  units.map((u, i) => (i === 0 ? u.text : u.separator + u.text)).join("");

/** Splits one section's blocks into chunk texts. */
export const chunkBlocks = (blocks: ReadonlyArray<Block>, options: ChunkingOptions = DEFAULT_CHUNKING) => {
  const units = blocks.flatMap((block) =>
    block.kind === "code" ? [unit(block.text, "\n\n", true)] : proseUnits(block.text, options.maxTokens),
  );
  const chunks: string[] = [];
  let current: Unit[] = [];
  let tokens = 0;
  let fresh = 0;
  for (const next of units) {
    if (fresh > 0 && tokens + next.tokens > options.maxTokens) {
      chunks.push(join(current));
      current = overlapTail(current, options.overlapTokens);
      tokens = current.reduce((sum, u) => sum + u.tokens, 0);
      fresh = 0;
      if (tokens + next.tokens > options.maxTokens) {
        current = [];
        tokens = 0;
      }
    }
    current.push(next);
    tokens += next.tokens;
    fresh++;
  }
  if (fresh > 0) chunks.push(join(current));
  return chunks;
};
