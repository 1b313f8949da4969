/**
 * The lexical ranking of chunks (the local index, and the index kept beside Chroma): BM25F
 * over each chunk's own heading, the headings above it, the document title, the code it names
 * and its text. Heading and code weigh most: in API docs a heading or an inline `code` span
 * usually names exactly the function or clause a question is about.
 */
import type { DocChunk } from "../../../core/ports/retrieval.ts";
import { analysisFor } from "../text-analysis/analyze.ts";
import { detectDocsLanguage } from "../text-analysis/languages.ts";
import { type Bm25Params, type Bm25Tables, buildBm25Tables, type FieldTexts } from "./bm25.ts";

export const CHUNK_BM25: Bm25Params = {
  weights: { heading: 2, parents: 1, title: 1, code: 1, text: 1 },
  b: { heading: 0.5, parents: 0.5, title: 0, code: 0.5, text: 0.75 },
  k1: 1.2,
};

/**
 * Splits "fs.readFile(path[, options], callback)" into the name and its parameter list: the
 * name says what the section is about, parameter names (message, options) are weaker clues.
 */
const splitSignature = (heading: string): readonly [string, string] => {
  const open = heading.indexOf("(");
  return open > 0 && heading.endsWith(")") ? [heading.slice(0, open), heading.slice(open)] : [heading, ""];
};

const FENCED = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1/gm;
const INLINE_CODE = /`([^`\n]+)`/g;
// In a code block, the names that are called or dotted say what the example uses.
const CALLED = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+|[A-Za-z_$][\w$]*(?=\()/g;

/** The code a passage names: its inline code spans and the calls and dotted names of its code blocks. */
export const codeOf = (text: string): string => {
  const blocks: string[] = [];
  const prose = text.replace(FENCED, (_, _fence, code: string) => {
    blocks.push(...(code.match(CALLED) ?? []));
    return " ";
  });
  const inline = [...prose.matchAll(INLINE_CODE)].map((match) => match[1]!);
  return [...inline, ...blocks].join(" ");
};

/** A chunk's fields: own heading (name only), parent headings plus parameters, title, code, text. */
export const chunkFields = (chunk: Pick<DocChunk, "title" | "heading" | "text">): FieldTexts => {
  const path = chunk.heading === "" ? [] : chunk.heading.split(" > ");
  const own = path[path.length - 1] ?? "";
  const [name, parameters] = splitSignature(own);
  return {
    heading: name,
    parents: [...path.slice(0, -1), parameters].join(" "),
    title: chunk.title,
    code: codeOf(chunk.text),
    text: chunk.text,
  };
};

/**
 * BM25F tables over chunks (positions as in `chunks`), analysed in `language` (ISO 639-1), or
 * in the language detected from the chunks when none is given.
 */
export const buildLexicalTables = (
  chunks: ReadonlyArray<Pick<DocChunk, "title" | "heading" | "text">>,
  language?: string | undefined,
  params: Bm25Params = CHUNK_BM25,
): Bm25Tables =>
  buildBm25Tables(
    chunks.map(chunkFields),
    params,
    analysisFor(language ?? detectDocsLanguage(chunks.map((chunk) => chunk.text))),
  );
