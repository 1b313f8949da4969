/**
 * Text analysis shared by the hashed embedder and the lexical (BM25) index, so a question and
 * a passage are cut into the same terms. API docs are full of identifiers such as
 * `fsPromises.writeFile`, `asyncio.gather`, `max_slot_wal_keep_size` or `--base-url`: each is
 * kept whole (exact matches rank first) and also split at dots, underscores, dashes and
 * camelCase humps ("fs", "promis", "write", "file"), so plain-English questions reach them
 * too. Upper-case keyword runs (`ON CONFLICT`, `SKIP LOCKED`) also give a term per adjacent
 * pair ("on_conflict"), so a question naming the clause finds it even though "on" alone is a
 * stop word.
 *
 * One analysis per language of the docs (`analysisFor`): English, the default, reads ASCII
 * words with its own stop words and the Porter stemmer (what the large corpora were calibrated
 * on); every other language reads Unicode words ("hält", "Brühgruppe") with its stop words and
 * Snowball stemmer (languages.ts). `terms` and `tokens` are English's.
 */
import { DEFAULT_LANGUAGE, languageInfo, stopSet } from "./languages.ts";
import { stem as porter } from "./stem.ts";

const ENGLISH_STOPWORDS = (
  "a about above after again all also am an and any are as at be been before being below between both " +
  "but by can could did do does doing down during each else few for from further had has have having " +
  "he her here hers him his how i if in into is it its itself just me more most my no nor not of off " +
  "on once only or other our out over own same she should so some such than that the their them then " +
  "there these they this those through to too under until up very was we were what when where which " +
  "while who whom why will with would you your yours want need way like much many lot lots something " +
  "anything everything nothing thing things"
).split(" ");

/** One word as written, with the terms it yields. */
export interface Token {
  /** Lower-cased surface form, e.g. "fspromises.writefile". */
  readonly word: string;
  /** True for dotted, camelCase or snake_case names. */
  readonly identifier: boolean;
  readonly terms: ReadonlyArray<string>;
}

/** How one language's texts are cut into index terms. */
export interface Analysis {
  /** ISO 639-1 code. */
  readonly language: string;
  /** Splits text into tokens (identifiers whole and in parts; stop words dropped; stemmed). */
  readonly tokens: (text: string) => ReadonlyArray<Token>;
  /** The flat list of index terms of a text, in order, with repeats. */
  readonly terms: (text: string) => ReadonlyArray<string>;
  /** Whether a lower-cased word is one of the language's stop words. */
  readonly isStopword: (word: string) => boolean;
}

/** The character classes a language's words are read with. */
interface Script {
  readonly token: RegExp;
  readonly humps: RegExp;
  readonly plain: RegExp;
  readonly acronym: RegExp;
  readonly lowerUpper: RegExp;
  readonly leadingCaps: RegExp;
  readonly keyword: RegExp;
  readonly pluralAcronym: RegExp;
}

const ASCII: Script = {
  token: /(?<![\w-])--?[A-Za-z][\w-]*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|\d+/g,
  humps: /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g,
  plain: /^[a-z]+$/,
  acronym: /^[A-Z][A-Z0-9]+$/,
  lowerUpper: /[a-z][A-Z]/,
  leadingCaps: /^[A-Z]{2,}[a-z]/,
  keyword: /^[A-Z]{2,}$/,
  pluralAcronym: /^[A-Z]{2,}s$/,
};

const UNICODE: Script = {
  token:
    /(?<![\p{L}\p{N}_-])--?\p{L}[\p{L}\p{N}_-]*|[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*|\p{N}+/gu,
  humps: /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+/gu,
  plain: /^\p{Ll}+$/u,
  acronym: /^\p{Lu}[\p{Lu}\p{N}]+$/u,
  lowerUpper: /\p{Ll}\p{Lu}/u,
  leadingCaps: /^\p{Lu}{2,}\p{Ll}/u,
  keyword: /^\p{Lu}{2,}$/u,
  pluralAcronym: /^\p{Lu}{2,}s$/u,
};

// Words repeat endlessly in docs; analysing each distinct word once keeps indexing fast.
const MEMO_LIMIT = 200_000;
const MEMO_WORD_CHARS = 64;

const makeAnalysis = (
  language: string,
  script: Script,
  stopwords: ReadonlySet<string>,
  stem: (word: string) => string,
): Analysis => {
  const wordTerm = (lower: string): string | undefined =>
    lower.length < 2 || lower.length > 40 || stopwords.has(lower) ? undefined : stem(lower);

  /** Acronyms are not stemmed: "HTTPS" is not the plural of "HTTP", nor "TLS" of "TL". */
  const termOf = (raw: string): string | undefined => {
    const lower = raw.toLowerCase();
    return script.acronym.test(raw) && !stopwords.has(lower) ? lower : wordTerm(lower);
  };

  const isIdentifier = (raw: string): boolean =>
    raw.includes(".") ||
    raw.includes("_") ||
    raw.startsWith("-") ||
    script.lowerUpper.test(raw) ||
    script.leadingCaps.test(raw);

  const analyzeWord = (raw: string): Token | undefined => {
    // A plural acronym ("APIs", "URLs", "AAs") is its acronym, not a camelCase name.
    if (script.pluralAcronym.test(raw)) {
      const term = termOf(raw.slice(0, -1));
      return term === undefined ? undefined : { word: raw.toLowerCase(), identifier: false, terms: [term] };
    }
    if (script.plain.test(raw)) {
      const term = wordTerm(raw);
      return term === undefined ? undefined : { word: raw, identifier: false, terms: [term] };
    }
    const word = raw.toLowerCase().replace(/^[_$]+|[_$.]+$/g, "");
    if (word === "") return undefined;
    if (!isIdentifier(raw)) {
      const term = termOf(raw.replace(/^[_$]+|[_$.]+$/g, ""));
      return term === undefined ? undefined : { word, identifier: false, terms: [term] };
    }
    const terms = new Set<string>([word]);
    for (const segment of raw.replace(/^-+/, "").split(/[.-]/)) {
      const lowerSegment = segment.toLowerCase().replace(/^[_$]+/, "");
      if (lowerSegment.length > 1) terms.add(lowerSegment);
      for (const hump of segment.match(script.humps) ?? []) {
        const term = termOf(hump);
        if (term !== undefined) terms.add(term);
        // An upper-case part of a name is also the word a question writes: REDIS_URL meets "Redis".
        const word = script.acronym.test(hump) ? wordTerm(hump.toLowerCase()) : undefined;
        if (word !== undefined) terms.add(word);
      }
    }
    return { word, identifier: true, terms: [...terms] };
  };

  const memo = new Map<string, Token | null>();
  const analyzeMemo = (raw: string): Token | undefined => {
    // A visitor's long tokens are rare and would fill the memo: analysed, not kept.
    if (raw.length > MEMO_WORD_CHARS) return analyzeWord(raw);
    const known = memo.get(raw);
    if (known !== undefined) return known ?? undefined;
    const token = analyzeWord(raw);
    if (memo.size < MEMO_LIMIT) memo.set(raw, token ?? null);
    return token;
  };

  const tokens = (text: string): ReadonlyArray<Token> => {
    const out: Token[] = [];
    for (const raw of text.match(script.token) ?? []) {
      const token = analyzeMemo(raw);
      if (token !== undefined) out.push(token);
    }
    return out;
  };

  const terms = (text: string): ReadonlyArray<string> => {
    const out: string[] = [];
    let previousKeyword: string | undefined;
    let previousEnd = -1;
    for (const match of text.matchAll(script.token)) {
      const raw = match[0];
      const token = analyzeMemo(raw);
      if (token !== undefined) for (const term of token.terms) out.push(term);
      // Adjacent upper-case keywords (only white space between them) pair up.
      const keyword = script.keyword.test(raw) ? raw.toLowerCase() : undefined;
      const adjacent = previousEnd >= 0 && /^[ \t\n]+$/.test(text.slice(previousEnd, match.index));
      if (keyword !== undefined && previousKeyword !== undefined && adjacent)
        out.push(`${previousKeyword}_${keyword}`);
      previousKeyword = keyword;
      previousEnd = match.index + raw.length;
    }
    return out;
  };

  return { language, tokens, terms, isStopword: (word) => stopwords.has(word) };
};

const ENGLISH = makeAnalysis(DEFAULT_LANGUAGE, ASCII, new Set(ENGLISH_STOPWORDS), porter);
const analyses = new Map<string, Analysis>([[DEFAULT_LANGUAGE, ENGLISH]]);

/** The analysis of a language's texts (English for a code it does not know). */
export const analysisFor = (language: string): Analysis => {
  let analysis = analyses.get(language);
  if (analysis === undefined) {
    const info = languageInfo(language);
    if (info.stem === undefined) return ENGLISH;
    const snowball = info.stem;
    analysis = makeAnalysis(info.code, UNICODE, stopSet(info.code), (word) =>
      word.length < 3 ? word : snowball(word),
    );
    analyses.set(info.code, analysis);
  }
  return analysis;
};

/** English tokens (see Analysis.tokens). */
export const tokens = ENGLISH.tokens;

/** English terms (see Analysis.terms). */
export const terms = ENGLISH.terms;
