/**
 * The sources an answer goes out with, and which of them it cites. An answer's [n] cites the
 * n-th of its sources: of the passages the generator listed (`Answer.listed`; the extractive
 * generator lists only those related to the question, the cited ones first), or, when it
 * listed none, of every passage it was given, in retrieval order (a language model's answer,
 * and a decline, which shows the closest sections). So the list the visitor reads and the
 * numbers in the text agree, in the JSON reply, the stream and the insights alike.
 */
import type { Answer } from "../ports/generator.ts";

/** The [n] numbers an answer cites ("[1]", "[2, 3]"). */
export const citedNumbers = (text: string): ReadonlySet<number> => {
  const numbers = new Set<number>();
  for (const match of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g))
    for (const n of (match[1] ?? "").split(",")) numbers.add(Number(n));
  return numbers;
};

/**
 * The passages listed with the answer, in its numbering. A listing that names a passage the
 * generator was not given is not trusted (its numbers would point elsewhere): all are listed.
 */
export const listedSources = <Chunk>(
  answer: Pick<Answer, "listed">,
  chunks: ReadonlyArray<Chunk>,
): ReadonlyArray<Chunk> => {
  const { listed } = answer;
  if (listed === undefined || !listed.every((index) => Number.isInteger(index) && index in chunks))
    return chunks;
  return listed.map((index) => chunks[index]!);
};

/** Positions (0-based, in the order given to the generator) of the passages the answer cites. */
export const citedPassages = (
  answer: Pick<Answer, "text" | "listed">,
  chunks: ReadonlyArray<unknown>,
): ReadonlySet<number> => {
  const positions = listedSources(
    answer,
    chunks.map((_, index) => index),
  );
  const cited = new Set<number>();
  for (const n of citedNumbers(answer.text)) {
    const position = positions[n - 1];
    if (position !== undefined) cited.add(position);
  }
  return cited;
};
