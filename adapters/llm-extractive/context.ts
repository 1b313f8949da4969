/**
 * What comes with the sentences an answer quotes (choose.ts): what they lead to and what they
 * cannot be read without, from the same passage, in this order while the answer stays within
 * its limits (at most five sentences, 1400 characters; code is not counted, as compose.ts
 * does not count it):
 *
 * 1. the example or list a sentence introduces ("... looks like:");
 * 2. the next sentence when it opens by referring back ("This is done with `X`.", "Sie gehört
 *    nicht in die Spülmaschine.");
 * 3. the sentence before one that opens by referring back ("Diese Zeit lässt sich im Menü
 *    einstellen." is nothing without "... nach 2 Stunden schaltet er sich ganz ab.");
 * 4. the best sentence's next one while it still holds a question term of its own ("If your
 *    phone is flat, enter the backup code ..." after "Tap your phone on the lock ..."): an
 *    answer often goes on past its best sentence, most of all on a small site's few pages.
 *
 * A sentence brought along after one (2, 4) never ends in ":", as what it introduces would be
 * missing. Context comes only within the limits, so it never displaces a sentence chosen by
 * score. On the eval sets (2, 3 and 4 added) it brought 4 more small-site facts and 4 more
 * large-corpus phrases, and lost none.
 *
 * "Referring back" is an opening pronoun or demonstrative in the docs' language (the languages
 * of shared/text-analysis/languages.ts); articles that double as pronouns (German "das",
 * Dutch "het") are left out, since "Das Gerät ..." refers to nothing before it.
 */
import { LIMITS } from "./limits.ts";
import type { Scored, ScoredPassage } from "./scoring.ts";

/** Words a sentence opens with when it speaks of what the sentence before it said. */
const REFERRING: Readonly<Record<string, ReadonlyArray<string>>> = {
  en: [
    ...["this", "these", "that", "those", "it", "its", "they", "their", "such"],
    ...["to do so", "to do this", "for example", "for instance"],
  ],
  de: [
    ...["dies", "diese", "dieser", "dieses", "diesem", "diesen", "er", "sie", "es"],
    ...["dabei", "dafür", "dazu", "damit", "danach", "davon", "dadurch", "daher", "deshalb", "dort"],
  ],
  fr: ["ce", "cela", "ceci", "ces", "cette", "cet", "il", "ils", "elle", "elles", "celui", "celle"],
  es: ["esto", "esta", "este", "estos", "estas", "eso", "esa", "ese", "esos", "esas", "ello"],
  it: ["questo", "questa", "questi", "queste", "ciò", "esso", "essa", "essi", "esse"],
  pt: ["isto", "isso", "este", "esta", "estes", "estas", "esse", "essa", "esses", "essas"],
  nl: ["dit", "deze", "dat", "die", "hij", "zij", "ze"],
  sv: ["detta", "denna", "dessa", "den", "det", "de"],
  da: ["dette", "denne", "disse", "den", "det", "de"],
  no: ["dette", "denne", "disse", "den", "det", "de"],
  fi: ["tämä", "nämä", "tätä", "tämän", "se", "ne", "sen", "niiden"],
};

/** A sentence opening with one of `words`, whole ("It ..." but not "Items ..."). */
const opening = (words: ReadonlyArray<string>): RegExp =>
  new RegExp(`^(?:${words.join("|")})(?![\\p{L}\\p{N}_])`, "iu");

const OPENINGS = new Map(Object.entries(REFERRING).map(([code, words]) => [code, opening(words)]));

/** Whether a sentence opens by referring back to the one before it; never in a language without a list. */
export const refersBack = (sentence: string, language: string): boolean =>
  OPENINGS.get(language)?.test(sentence) ?? false;

/** Characters a sentence takes in the answer (compose.ts cuts a long one at 400, adding " …"). */
const quotedChars = (s: Scored): number => Math.min(s.segment.text.length, LIMITS.sentenceChars + 2);

/** The chosen sentences with what comes with them (rules 1-4 above); `best` is the best of them. */
export const withContext = (
  chosen: ReadonlyArray<Scored>,
  best: Scored,
  passages: ReadonlyArray<ScoredPassage>,
  language: string,
): ReadonlyArray<Scored> => {
  const quoted = [...chosen];
  const sentences = () => quoted.filter((s) => s.segment.kind === "sentence");
  const fits = (piece: Scored) =>
    sentences().length < LIMITS.sentencesWithFollowers &&
    (piece.segment.kind === "code" ||
      sentences().reduce((chars, s) => chars + quotedChars(s), quotedChars(piece)) <= LIMITS.answerChars);
  const add = (piece: Scored | undefined) => {
    if (piece !== undefined && !quoted.includes(piece) && fits(piece)) quoted.push(piece);
  };
  const neighbour = (s: Scored, step: 1 | -1) => passages[s.passage]!.scored[s.order + step];
  /** A sentence that can be brought along: prose, not introducing something left out. */
  const context = (piece: Scored | undefined) =>
    piece?.segment.kind === "sentence" && !piece.segment.text.endsWith(":") ? piece : undefined;

  for (const s of chosen) {
    const next = neighbour(s, 1);
    if (next === undefined || !s.segment.text.endsWith(":")) continue;
    if (next.segment.kind === "sentence" || next.segment.text.length <= LIMITS.codeChars) add(next);
  }
  for (const s of chosen) {
    const next = context(neighbour(s, 1));
    if (next !== undefined && refersBack(next.segment.text, language)) add(next);
  }
  for (const s of chosen) {
    // The sentence before may end in ":": it introduces this one.
    const before = neighbour(s, -1);
    if (before?.segment.kind === "sentence" && refersBack(s.segment.text, language)) add(before);
  }
  const next = context(neighbour(best, 1));
  if (next !== undefined && next.ownShare > 0) add(next);
  return quoted;
};
