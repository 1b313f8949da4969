/**
 * Text analysis shared by the hashed embedder and the lexical (BM25) index, so a question and
 * a passage are cut into the same terms. API docs are full of identifiers such as
 * `fsPromises.writeFile`, `asyncio.gather`, `max_slot_wal_keep_size` or `--base-url`: each is
 * kept whole (exact matches rank first) and also split at dots, underscores, dashes and
 * camelCase humps ("fs", "promis", "write", "file"), so plain-English questions reach them
 * too. Upper-case keyword runs (`ON CONFLICT`, `SKIP LOCKED`) also give a term per adjacent
 * pair ("on_conflict"), so a question naming the clause finds it even though "on" alone is a
 * stop word.
 */
import { stem } from "./stem.ts";

const STOPWORDS = new Set(
  (
    "a about above after again all also am an and any are as at be been before being below between both " +
    "but by can could did do does doing down during each else few for from further had has have having " +
    "he her here hers him his how i if in into is it its itself just me more most my no nor not of off " +
    "on once only or other our out over own same she should so some such than that the their them then " +
    "there these they this those through to too under until up very was we were what when where which " +
    "while who whom why will with would you your yours want need way like much many lot lots something " +
    "anything everything nothing thing things"
  ).split(" "),
);

const TOKEN = /(?<![\w-])--?[A-Za-z][\w-]*|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|\d+/g;
const HUMPS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;

/** One word as written, with the terms it yields. */
export interface Token {
  /** Lower-cased surface form, e.g. "fspromises.writefile". */
  readonly word: string;
  /** True for dotted, camelCase or snake_case names. */
  readonly identifier: boolean;
  readonly terms: ReadonlyArray<string>;
}

const wordTerm = (lower: string): string | undefined =>
  lower.length < 2 || lower.length > 40 || STOPWORDS.has(lower) ? undefined : stem(lower);

const ACRONYM = /^[A-Z][A-Z0-9]+$/;

/** Acronyms are not stemmed: "HTTPS" is not the plural of "HTTP", nor "TLS" of "TL". */
const termOf = (raw: string): string | undefined => {
  const lower = raw.toLowerCase();
  return ACRONYM.test(raw) && !STOPWORDS.has(lower) ? lower : wordTerm(lower);
};

const isIdentifier = (raw: string): boolean =>
  raw.includes(".") ||
  raw.includes("_") ||
  raw.startsWith("-") ||
  /[a-z][A-Z]/.test(raw) ||
  /^[A-Z]{2,}[a-z]/.test(raw);

const PLAIN = /^[a-z]+$/;

const analyzeWord = (raw: string): Token | undefined => {
  if (PLAIN.test(raw)) {
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
    for (const hump of segment.match(HUMPS) ?? []) {
      const term = termOf(hump);
      if (term !== undefined) terms.add(term);
      // An upper-case part of a name is also the word a question writes: REDIS_URL meets "Redis".
      const word = ACRONYM.test(hump) ? wordTerm(hump.toLowerCase()) : undefined;
      if (word !== undefined) terms.add(word);
    }
  }
  return { word, identifier: true, terms: [...terms] };
};

// Words repeat endlessly in docs; analysing each distinct word once keeps indexing fast.
const memo = new Map<string, Token | null>();
const MEMO_LIMIT = 200_000;

const analyzeMemo = (raw: string): Token | undefined => {
  const known = memo.get(raw);
  if (known !== undefined) return known ?? undefined;
  const token = analyzeWord(raw);
  if (memo.size < MEMO_LIMIT) memo.set(raw, token ?? null);
  return token;
};

/** Splits text into tokens (identifiers whole and in parts; stop words dropped; stemmed). */
export const tokens = (text: string): ReadonlyArray<Token> => {
  const out: Token[] = [];
  for (const raw of text.match(TOKEN) ?? []) {
    const token = analyzeMemo(raw);
    if (token !== undefined) out.push(token);
  }
  return out;
};

const KEYWORD = /^[A-Z]{2,}$/;

/** The flat list of index terms of a text, in order, with repeats. */
export const terms = (text: string): ReadonlyArray<string> => {
  const out: string[] = [];
  let previousKeyword: string | undefined;
  let previousEnd = -1;
  for (const match of text.matchAll(TOKEN)) {
    const raw = match[0];
    const token = analyzeMemo(raw);
    if (token !== undefined) for (const term of token.terms) out.push(term);
    // Adjacent upper-case keywords (only white space between them) pair up.
    const keyword = KEYWORD.test(raw) ? raw.toLowerCase() : undefined;
    const adjacent = previousEnd >= 0 && /^[ \t\n]+$/.test(text.slice(previousEnd, match.index));
    if (keyword !== undefined && previousKeyword !== undefined && adjacent)
      out.push(`${previousKeyword}_${keyword}`);
    previousKeyword = keyword;
    previousEnd = match.index + raw.length;
  }
  return out;
};
