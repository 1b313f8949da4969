/**
 * The Porter (1980) stemmer, so "writes", "writing" and "written" meet "write" in both the
 * lexical index and the hashed vectors. Input must be lower-case ASCII letters.
 */

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];
const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

const C = "[^aeiou]";
const V = "[aeiouy]";
const CS = `${C}[^aeiouy]*`;
const VS = `${V}[aeiou]*`;
const MGR0 = new RegExp(`^(${CS})?${VS}${CS}`);
const MEQ1 = new RegExp(`^(${CS})?${VS}${CS}(${VS})?$`);
const MGR1 = new RegExp(`^(${CS})?${VS}${CS}${VS}${CS}`);
const HAS_VOWEL = new RegExp(`^(${CS})?${V}`);
const CVC = new RegExp(`^${CS}${V}[^aeiouwxy]$`);

const replaceSuffix = (word: string, rules: ReadonlyArray<readonly [string, string]>): string => {
  for (const [suffix, replacement] of rules) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, -suffix.length);
      return MGR0.test(stem) ? stem + replacement : word;
    }
  }
  return word;
};

const step1 = (input: string): string => {
  let w = input;
  if (w.endsWith("sses") || w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.endsWith("eed")) {
    if (MGR0.test(w.slice(0, -3))) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith("ed") ? "ed" : w.endsWith("ing") ? "ing" : "";
    const stem = w.slice(0, w.length - suffix.length);
    if (suffix !== "" && HAS_VOWEL.test(stem)) {
      w = stem;
      if (/(at|bl|iz)$/.test(w)) w += "e";
      else if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
      else if (CVC.test(w)) w += "e";
    }
  }
  if (w.endsWith("y") && HAS_VOWEL.test(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  return w;
};

const step4 = (w: string): string => {
  for (const suffix of STEP4) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      return MGR1.test(stem) ? stem : w;
    }
  }
  if (w.endsWith("ion")) {
    const stem = w.slice(0, -3);
    if (MGR1.test(stem) && /[st]$/.test(stem)) return stem;
  }
  return w;
};

const step5 = (input: string): string => {
  let w = input;
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    if (MGR1.test(stem) || (MEQ1.test(stem) && !CVC.test(stem))) w = stem;
  }
  if (w.endsWith("ll") && MGR1.test(w)) w = w.slice(0, -1);
  return w;
};

const porter = (word: string): string =>
  step5(step4(replaceSuffix(replaceSuffix(step1(word), STEP2), STEP3)));

// Docs have a small vocabulary (about ten thousand words), so a memo makes stemming nearly free.
const memo = new Map<string, string>();
const MEMO_LIMIT = 100_000;

/** Porter stem of a lower-case word; words under 3 letters are returned as they are. */
export const stem = (word: string): string => {
  const known = memo.get(word);
  if (known !== undefined) return known;
  const stemmed = word.length < 3 || !/^[a-z]+$/.test(word) ? word : porter(word);
  if (memo.size < MEMO_LIMIT) memo.set(word, stemmed);
  return stemmed;
};
