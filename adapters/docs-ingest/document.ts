/**
 * One document to chunks with their metadata: a stable id (source path + heading path +
 * ordinal), the heading path "A > B > C", and a public URL with the heading's anchor.
 */
import { createHash } from "node:crypto";
import { basename, extname } from "node:path";
import type { DocChunk } from "../../core/ports/retrieval.ts";
import { type ChunkingOptions, chunkBlocks, DEFAULT_CHUNKING } from "./chunker.ts";
import { parseHtml } from "./html.ts";
import { parseMarkdown } from "./markdown.ts";
import { HTML_EXTENSIONS, MARKDOWN_EXTENSIONS } from "./page-types.ts";
import type { ParsedDocument } from "./parsed.ts";
import { parseText } from "./plain-text.ts";

export { HTML_EXTENSIONS, MARKDOWN_EXTENSIONS, SUPPORTED_EXTENSIONS, TEXT_EXTENSIONS } from "./page-types.ts";

const sha1 = (text: string): string => createHash("sha1").update(text).digest("hex");

/** Parses by file extension (Markdown, HTML, or plain text for anything else). */
export const parseDocument = (source: string, content: string): ParsedDocument => {
  const extension = extname(source).toLowerCase();
  const fileName = basename(source);
  if (MARKDOWN_EXTENSIONS.includes(extension)) return parseMarkdown(content, fileName);
  if (HTML_EXTENSIONS.includes(extension)) return parseHtml(content, fileName);
  return parseText(content, fileName);
};

/** The public page of a source: base URL + path, with Markdown pages served as .html. */
const pageUrl = (baseUrl: string, source: string): string => {
  if (baseUrl === "") return "";
  const path = source
    .replace(/\.(md|markdown)$/i, ".html")
    .split("/")
    .map(encodeURIComponent)
    .join("/");
  return `${baseUrl.replace(/\/+$/, "")}/${path}`;
};

/** A chunk id that survives re-ingestion as long as its place in the document does. */
export const chunkId = (source: string, heading: string, ordinal: number): string =>
  `${source}:${sha1(heading).slice(0, 12)}:${ordinal}`;

/** Hash of everything stored for a chunk (plus a salt), to tell changed chunks from unchanged ones. */
export const contentHash = (chunk: DocChunk, salt = ""): string =>
  sha1(JSON.stringify([salt, chunk.title, chunk.heading, chunk.source, chunk.url, chunk.text]));

/** Splits one document into chunks. `source` is its path relative to the ingested root. */
export const chunkDocument = (
  source: string,
  content: string,
  baseUrl = "",
  options: ChunkingOptions = DEFAULT_CHUNKING,
): ReadonlyArray<DocChunk> =>
  chunkParsed(source, parseDocument(source, content), pageUrl(baseUrl, source), options);

/** Splits a parsed document into chunks cited as `page` (its URL, "" when unknown) + anchor. */
export const chunkParsed = (
  source: string,
  document: ParsedDocument,
  page: string,
  options: ChunkingOptions = DEFAULT_CHUNKING,
): ReadonlyArray<DocChunk> => {
  const ordinals = new Map<string, number>();
  return document.sections.flatMap((section) => {
    // Below the title: the title is a field of its own and never repeats in the path.
    const heading = section.headings.join(" > ");
    const url = page === "" || section.anchor === "" ? page : `${page}#${section.anchor}`;
    return chunkBlocks(section.blocks, options).map((text) => {
      const ordinal = ordinals.get(heading) ?? 0;
      ordinals.set(heading, ordinal + 1);
      return { id: chunkId(source, heading, ordinal), text, title: document.title, heading, source, url };
    });
  });
};

/** "Title > Section > Subsection": where a passage sits, for people and for embedders. */
export const placeOf = (chunk: Pick<DocChunk, "title" | "heading">): string =>
  [chunk.title, chunk.heading].filter((part) => part !== "").join(" > ");

/** The text an embedder sees: the passage's place gives it context. */
export const indexedText = (chunk: DocChunk): string => `${placeOf(chunk)}\n\n${chunk.text}`;
