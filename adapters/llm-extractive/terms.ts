/**
 * What a question asks for beyond its words: the code identifiers it names (`fs.writeFile`,
 * `max_tokens`, `useEffect()`), which count more than words, and whether it wants a way of
 * doing something (then a code example answers it).
 */

const WORD = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?|\d+(?:\.\d+)*/g;

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
