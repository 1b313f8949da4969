/**
 * Question sets for the evaluation: TSV files with a header line. A dev set has
 * `question<TAB>file<TAB>phrase` (the page that answers it, relative to the docs root, and a
 * short exact string a correct answer contains); an out-of-scope set needs only `question`.
 */
import { readFileSync } from "node:fs";

export interface EvalQuestion {
  readonly question: string;
  readonly file: string;
  readonly phrase: string;
}

/** The data lines of a TSV file, split into cells (header skipped, blank lines and `#` comments dropped). */
const rows = (path: string): ReadonlyArray<ReadonlyArray<string>> =>
  readFileSync(path, "utf8")
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => line.split("\t").map((cell) => cell.trim()));

/** Reads a dev set; a line without its three cells is an error naming the line. */
export const readQuestions = (path: string): ReadonlyArray<EvalQuestion> =>
  rows(path).map((cells, i) => {
    const [question, file, phrase] = cells;
    if (!question || !file || !phrase)
      throw new Error(`${path}: data line ${i + 1} needs question<TAB>file<TAB>phrase`);
    return { question, file, phrase };
  });

/** One site of a small-sites set: its folder, the questions it answers and the ones it should decline. */
export interface SiteQuestions {
  readonly site: string;
  readonly dev: ReadonlyArray<EvalQuestion>;
  readonly outOfScope: ReadonlyArray<string>;
}

/**
 * Reads a small-sites set: `site<TAB>question<TAB>file<TAB>phrase`, the site naming a folder
 * beside the file; `DECLINE` as the phrase marks a question no page answers.
 */
export const readSiteQuestions = (path: string): ReadonlyArray<SiteQuestions> => {
  const sites = new Map<string, { dev: EvalQuestion[]; outOfScope: string[] }>();
  rows(path).forEach((cells, i) => {
    const [site, question, file, phrase] = cells;
    if (!site || !question || !phrase || (phrase !== "DECLINE" && !file))
      throw new Error(`${path}: data line ${i + 1} needs site<TAB>question<TAB>file<TAB>phrase (or DECLINE)`);
    const entry = sites.get(site) ?? { dev: [], outOfScope: [] };
    if (phrase === "DECLINE") entry.outOfScope.push(question);
    else entry.dev.push({ question, file: file!, phrase });
    sites.set(site, entry);
  });
  return [...sites].map(([site, questions]) => ({ site, ...questions }));
};

/** Reads an out-of-scope set: the first cell of each line. */
export const readOutOfScope = (path: string): ReadonlyArray<string> =>
  rows(path)
    .map((cells) => cells[0] ?? "")
    .filter((question) => question !== "");
