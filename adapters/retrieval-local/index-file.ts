/**
 * The local index on disk, in one binary file (binary-file.ts): the chunks' texts and fields as
 * UTF-8 blobs with offsets, the vectors as int8 with a float scale per row, and the BM25F
 * postings, built at ingest. The service only reads it: nothing is parsed or analysed at start,
 * and a chunk's strings are decoded only when it is a result, so 10,000 chunks load in tens of
 * milliseconds and take about their file size in memory. Writes go to a temporary file renamed
 * into place, so a reader never sees half an index.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import * as Effect from "effect/Effect";
import type { DocChunk } from "../../core/ports/retrieval.ts";
import { RetrievalFailed, type StoredEntry } from "../../core/ports/retrieval.ts";
import type { Bm25Tables } from "../shared/ranking/bm25.ts";
import { buildLexicalTables } from "../shared/ranking/lexical.ts";
import { decodeSections, encodeSections, encodeStrings, stringReader } from "./binary-file.ts";
import type { VectorRows } from "./vectors.ts";

export const INDEX_FORMAT_VERSION = 2;

export interface StoredChunk extends DocChunk, StoredEntry {}

const FIELDS = ["id", "title", "heading", "source", "url", "collection", "hash"] as const;

export interface IndexData {
  readonly embedder: string;
  readonly dimensions: number;
  /** A hash of every chunk's id and content: equal for equal indexes. */
  readonly version: string;
  readonly count: number;
  /** Distinct source files (per collection). */
  readonly files: number;
  /** Chunk `i`, decoded from the file's bytes. */
  readonly chunk: (i: number) => StoredChunk;
  /** A number naming chunk `i`'s page (collection and source), without decoding anything. */
  readonly pageOf: (i: number) => number;
  readonly vectors: VectorRows;
  readonly lexical: Bm25Tables;
}

/** The in-memory index for `chunks` and their vector rows (same order); builds the postings. */
export const buildIndexData = (
  embedder: string,
  dimensions: number,
  chunks: ReadonlyArray<StoredChunk>,
  vectors: VectorRows,
  /** The docs' language (ISO 639-1); detected from the chunks when not given. */
  language?: string | undefined,
): IndexData => {
  const pageKey = (chunk: StoredChunk) => `${chunk.collection}\n${chunk.source}`;
  const pageIds = new Map<string, number>();
  for (const chunk of chunks) if (!pageIds.has(pageKey(chunk))) pageIds.set(pageKey(chunk), pageIds.size);
  const lexical = buildLexicalTables(chunks, language);
  const digest = createHash("sha1").update(embedder);
  // Another analysis is another index (English, the first, keeps the versions it had).
  if (lexical.language !== "en") digest.update(`\n${lexical.language}`);
  for (const chunk of [...chunks].sort((a, b) => (a.id < b.id ? -1 : 1)))
    digest.update(`${chunk.id}\n${chunk.hash}\n`);
  return {
    embedder,
    dimensions,
    version: digest.digest("hex").slice(0, 16),
    count: chunks.length,
    files: pageIds.size,
    chunk: (i) => chunks[i]!,
    pageOf: (i) => pageIds.get(pageKey(chunks[i]!))!,
    vectors,
    lexical,
  };
};

const encode = (data: IndexData): Uint8Array => {
  const chunks = Array.from({ length: data.count }, (_, i) => data.chunk(i));
  const strings = new Map<string, number>();
  const fields = new Uint32Array(data.count * FIELDS.length);
  chunks.forEach((chunk, i) => {
    FIELDS.forEach((field, f) => {
      const value = chunk[field];
      let id = strings.get(value);
      if (id === undefined) {
        id = strings.size;
        strings.set(value, id);
      }
      fields[i * FIELDS.length + f] = id;
    });
  });
  const table = encodeStrings([...strings.keys()]);
  const texts = encodeStrings(chunks.map((chunk) => chunk.text));
  const terms = encodeStrings(data.lexical.terms);
  return encodeSections(
    {
      format: INDEX_FORMAT_VERSION,
      embedder: data.embedder,
      dimensions: data.dimensions,
      version: data.version,
      count: data.count,
      k1: data.lexical.k1,
      language: data.lexical.language,
    },
    {
      strings: table.blob,
      stringEnds: table.ends,
      fields,
      texts: texts.blob,
      textEnds: texts.ends,
      vectors: data.vectors.values,
      scales: data.vectors.scales,
      terms: terms.blob,
      termEnds: terms.ends,
      postingOffsets: data.lexical.offsets,
      postingRecords: data.lexical.records,
      postingTfs: data.lexical.tfs,
    },
  );
};

const decode = (bytes: Uint8Array): IndexData => {
  const { header, section } = decodeSections(bytes);
  const { format, embedder, dimensions, version, count, k1, language } = header;
  if (format !== INDEX_FORMAT_VERSION)
    throw new Error(
      `index format ${String(format)}; this version reads ${INDEX_FORMAT_VERSION}: re-run ingest`,
    );
  if (typeof embedder !== "string" || typeof version !== "string" || typeof k1 !== "number")
    throw new Error("the index header is incomplete");
  if (!Number.isInteger(dimensions) || !Number.isInteger(count))
    throw new Error("the index header is incomplete");
  const rows = count as number;
  const dims = dimensions as number;
  const strings = stringReader(section("strings", "u8"), section("stringEnds", "u32"));
  const texts = stringReader(section("texts", "u8"), section("textEnds", "u32"));
  const fields = section("fields", "u32");
  const values = section("vectors", "i8");
  const scales = section("scales", "f32");
  if (
    fields.length !== rows * FIELDS.length ||
    texts.count !== rows ||
    values.length !== rows * dims ||
    scales.length !== rows
  )
    throw new Error("the index sections disagree on the number of chunks");
  const termList = stringReader(section("terms", "u8"), section("termEnds", "u32"));
  const field = (i: number, f: number) => strings.get(fields[i * FIELDS.length + f]!);
  // Pairs of string ids (collection, source) tell pages apart without decoding a string.
  const pageOf = (i: number) => fields[i * FIELDS.length + 5]! * 2 ** 26 + fields[i * FIELDS.length + 3]!;
  const files = new Set<number>();
  for (let i = 0; i < rows; i++) files.add(pageOf(i));
  return {
    embedder,
    dimensions: dims,
    version,
    count: rows,
    files: files.size,
    pageOf,
    chunk: (i) => ({
      id: field(i, 0),
      title: field(i, 1),
      heading: field(i, 2),
      source: field(i, 3),
      url: field(i, 4),
      collection: field(i, 5),
      hash: field(i, 6),
      text: texts.get(i),
    }),
    vectors: { dimensions: dims, count: rows, values, scales },
    lexical: {
      // Indexes written before languages were told apart are English.
      language: typeof language === "string" ? language : "en",
      count: rows,
      k1,
      terms: Array.from({ length: termList.count }, (_, i) => termList.get(i)),
      offsets: section("postingOffsets", "u32"),
      records: section("postingRecords", "u32"),
      tfs: section("postingTfs", "f32"),
    },
  };
};

const fail = (what: string, path: string, cause: unknown) =>
  new RetrievalFailed({
    message: `cannot ${what} the index ${path}: ${cause instanceof Error ? cause.message : String(cause)}`,
  });

/** Reads the index file; `undefined` when there is none. */
export const readIndexFile = (path: string): Effect.Effect<IndexData | undefined, RetrievalFailed> =>
  Effect.try({
    try: () => {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      return decode(bytes);
    },
    catch: (cause) => fail("read", path, cause),
  });

/** Writes the index file atomically, creating its folder if needed. */
export const writeIndexFile = (path: string, data: IndexData): Effect.Effect<void, RetrievalFailed> =>
  Effect.try({
    try: () => {
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, encode(data));
      renameSync(temporary, path);
    },
    catch: (cause) => fail("write", path, cause),
  });
