/**
 * Words of a question or passage reduced to comparable terms, plus the code identifiers a
 * question names (`fs.writeFile`, `max_tokens`, `useEffect()`), which count more than words.
 */

const STOPWORDS = new Set(
  (
    "a about above after again all also am an and any are as at be because been before being below " +
    "between both but by can could did do does doing down during each even ever few for from further " +
    "get got had has have having he her here hers him his how i if in into is it its itself just let " +
    "me might more most must my no nor not now of off on once only or other our out over own please " +
    "same she should so some such tell than that the their them then there these they this those " +
    "through to too under until up us use used using very want was way we were what when where which " +
    "while who whom why will with would you your yours thanks thank hi hello explain show give need"
  ).split(" "),
);

const WORD = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?|\d+(?:\.\d+)*/g;

/** A light suffix stripper so "files", "file" and "writing", "write" meet. */
export const stem = (word: string): string => {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
};

/** Stemmed terms of a text; identifiers also count by their parts (`fs.writeFile` -> fs, writefil, writ, fil). */
export const terms = (text: string): ReadonlyArray<string> => {
  const out: string[] = [];
  for (const token of text.match(WORD) ?? []) {
    for (const part of token.replace(/\(\)$/, "").split(".")) {
      const lower = part.toLowerCase();
      if (lower.length > 1 && !STOPWORDS.has(lower)) out.push(stem(lower));
      // snake_case and camelCase parts also match prose ("max_tokens", "writeFile" vs "write a file").
      const pieces = part
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .toLowerCase()
        .split("_");
      if (pieces.length > 1)
        for (const piece of pieces) if (piece.length > 1 && !STOPWORDS.has(piece)) out.push(stem(piece));
    }
  }
  return out;
};

const looksLikeCode = (token: string): boolean =>
  /[._$]/.test(token.replace(/\(\)$/, "")) ||
  token.endsWith("()") ||
  /[a-z][A-Z]/.test(token) || // camelCase
  /^[A-Z][a-z]+[A-Z]/.test(token); // PascalCase with a second word

/** Identifiers named by the question: in backticks, or shaped like code. Lower-cased. */
export const identifiers = (question: string): ReadonlyArray<string> => {
  const found = new Set<string>();
  for (const quoted of question.match(/`([^`]+)`/g) ?? []) {
    const inner = quoted.slice(1, -1).trim().replace(/\(\)$/, "");
    if (inner !== "") found.add(inner.toLowerCase());
  }
  for (const token of question.match(WORD) ?? []) {
    if (looksLikeCode(token)) found.add(token.replace(/\(\)$/, "").replace(/\.$/, "").toLowerCase());
  }
  return [...found];
};

/** Whether a question asks for a way of doing something, where a code example is the answer. */
export const wantsCode = (question: string): boolean =>
  /\b(how|example|examples|code|snippet|syntax|sample|write|call|usage|implement)\b/i.test(question);
