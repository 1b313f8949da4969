/**
 * Question texts as the insights keep and compare them. Kept: whitespace collapsed, private
 * parts redacted, cut to a bound. Compared: a grouping key that ignores case, accents,
 * punctuation and the redacted parts, so "How do I pay?" and "how do i pay" are one question.
 */
import { redact } from "./redaction.ts";

/** `text` cut to at most `max` UTF-16 units, never inside a surrogate pair, with "…" when cut. */
export const bounded = (text: string, max: number): string => {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
};

/** The text as stored: Unicode-normalised (NFKC), one space between words, redacted, bounded. */
export const storedText = (text: string, pattern: RegExp, max: number): string =>
  bounded(redact(text.normalize("NFKC").replace(/\s+/gu, " ").trim(), pattern), max);

/** The key near-duplicate questions share: lower case, no accents, words of letters and digits only. */
export const groupingKey = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\[redacted\]/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
