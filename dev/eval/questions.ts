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

/** Reads an out-of-scope set: the first cell of each line. */
export const readOutOfScope = (path: string): ReadonlyArray<string> =>
  rows(path)
    .map((cells) => cells[0] ?? "")
    .filter((question) => question !== "");
