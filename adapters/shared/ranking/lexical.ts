/**
 * The lexical ranking of chunks (local retrieval, and the re-ranking of Chroma's candidates):
 * BM25F over each chunk's own heading, the headings above it, the document title and the text.
 * Heading words weigh most: in API docs a heading usually names exactly the function a question
 * is about.
 */
import type { DocChunk } from "../../../core/ports/retrieval.ts";
import { type Bm25Params, buildBm25, type FieldTexts } from "./bm25.ts";

export const CHUNK_BM25: Bm25Params = {
  weights: { heading: 2, parents: 1, title: 1, text: 1 },
  b: { heading: 0.5, parents: 0.5, title: 0, text: 0.75 },
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

/** A chunk's fields: own heading (name only), parent headings plus parameters, title, text. */
export const chunkFields = (chunk: DocChunk): FieldTexts => {
  const path = chunk.heading === "" ? [] : chunk.heading.split(" > ");
  const own = path[path.length - 1] ?? "";
  const [name, parameters] = own === chunk.title ? ["", ""] : splitSignature(own);
  const parents = path.slice(0, -1).filter((part) => part !== chunk.title);
  return { heading: name, parents: [...parents, parameters].join(" "), title: chunk.title, text: chunk.text };
};

/** BM25F over chunks; `search(question, limit)` gives chunk positions, best first. */
export const buildLexical = (chunks: ReadonlyArray<DocChunk>, params: Bm25Params = CHUNK_BM25) =>
  buildBm25(chunks.map(chunkFields), params);
