/**
 * The local index on disk: one JSON file with the chunks (metadata, text, content hash) and
 * all vectors as base64 blocks (int8 values, float32 row scales), which parse far faster and
 * smaller than a JSON number per dimension. Writes go to a temporary file renamed into place,
 * so a crash never leaves half an index.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { Effect } from "effect";
import { type DocChunk, RetrievalFailed } from "../../core/ports/retrieval.ts";
import type { VectorRows } from "./vectors.ts";

export const INDEX_FORMAT_VERSION = 1;

export interface StoredChunk extends DocChunk {
  readonly hash: string;
}

export interface IndexData {
  readonly embedder: string;
  readonly dimensions: number;
  readonly chunks: ReadonlyArray<StoredChunk>;
  /** One row per chunk, in the same order. */
  readonly vectors: VectorRows;
}

const fail = (message: string) => new RetrievalFailed({ message });

const isStoredChunk = (value: unknown): value is StoredChunk => {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return ["id", "text", "title", "heading", "source", "url", "hash"].every(
    (key) => typeof record[key] === "string",
  );
};

/** Base64 to bytes in a fresh, aligned buffer (Buffer memory may be pooled and unaligned). */
const bytesOf = (base64: string): Uint8Array => {
  const decoded = Buffer.from(base64, "base64");
  const bytes = new Uint8Array(decoded.byteLength);
  bytes.set(decoded);
  return bytes;
};

const base64Of = (view: ArrayBufferView): string =>
  Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");

const decode = (path: string, raw: string): IndexData => {
  const parsed: unknown = JSON.parse(raw);
  const file = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const { version, embedder, dimensions, chunks, vectors, scales } = file;
  if (version !== INDEX_FORMAT_VERSION)
    throw new Error(
      `${path} has index format ${String(version)}; this version reads ${INDEX_FORMAT_VERSION}`,
    );
  if (typeof embedder !== "string" || typeof dimensions !== "number" || !Number.isInteger(dimensions))
    throw new Error(`${path} lacks its embedder name or dimensions`);
  if (!Array.isArray(chunks) || !chunks.every(isStoredChunk)) throw new Error(`${path} has malformed chunks`);
  if (typeof vectors !== "string" || typeof scales !== "string") throw new Error(`${path} lacks its vectors`);
  const values = bytesOf(vectors);
  const scaleBytes = bytesOf(scales);
  if (values.byteLength !== chunks.length * dimensions || scaleBytes.byteLength !== chunks.length * 4)
    throw new Error(`${path} has vectors for ${values.byteLength / dimensions} chunks, not ${chunks.length}`);
  const rows: VectorRows = {
    dimensions,
    count: chunks.length,
    values: new Int8Array(values.buffer),
    scales: new Float32Array(scaleBytes.buffer),
  };
  return { embedder, dimensions, chunks, vectors: rows };
};

/** Reads the index file; `undefined` when there is none. */
export const readIndexFile = (path: string): Effect.Effect<IndexData | undefined, RetrievalFailed> =>
  Effect.try({
    try: () => {
      let raw: string;
      try {
        raw = readFileSync(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      return decode(path, raw);
    },
    catch: (cause) =>
      fail(`cannot read the index ${path}: ${cause instanceof Error ? cause.message : String(cause)}`),
  });

/** Writes the index file atomically, creating its folder if needed. */
export const writeIndexFile = (path: string, data: IndexData): Effect.Effect<void, RetrievalFailed> =>
  Effect.try({
    try: () => {
      mkdirSync(dirname(path), { recursive: true });
      const body = JSON.stringify({
        version: INDEX_FORMAT_VERSION,
        embedder: data.embedder,
        dimensions: data.dimensions,
        chunks: data.chunks,
        scales: base64Of(data.vectors.scales),
        vectors: base64Of(data.vectors.values),
      });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, body);
      renameSync(temporary, path);
    },
    catch: (cause) =>
      fail(`cannot write the index ${path}: ${cause instanceof Error ? cause.message : String(cause)}`),
  });
