/**
 * Incremental ingestion: chunk every input document, compare each chunk's content hash with
 * what the index holds, embed and write only new or changed chunks, and remove chunks whose
 * file or section is gone. The index afterwards mirrors exactly the given inputs.
 */
import { readFileSync } from "node:fs";
import { Effect, Schema } from "effect";
import { ChunkIndex, type DocChunk, Embedder } from "../../core/ports/retrieval.ts";
import type { ChunkingOptions } from "./chunker.ts";
import { chunkDocument, contentHash, indexedText, SUPPORTED_EXTENSIONS } from "./document.ts";
import { findSourceFiles } from "./walk.ts";

export class IngestFailed extends Schema.TaggedError<IngestFailed>()("IngestFailed", {
  message: Schema.String,
}) {}

export interface IngestOptions {
  readonly baseUrl?: string;
  readonly chunking?: ChunkingOptions;
  readonly batchSize?: number;
  /** Called after each embedded batch with chunks done and chunks to do. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface IngestReport {
  readonly files: number;
  readonly chunks: number;
  readonly added: number;
  readonly updated: number;
  readonly removed: number;
  readonly unchanged: number;
}

export interface HashedChunk {
  readonly chunk: DocChunk;
  readonly hash: string;
}

/** What to write and delete so the index holds exactly `wanted`. */
export const planChanges = (existing: ReadonlyMap<string, string>, wanted: ReadonlyArray<HashedChunk>) => {
  const write = wanted.filter(({ chunk, hash }) => existing.get(chunk.id) !== hash);
  const wantedIds = new Set(wanted.map(({ chunk }) => chunk.id));
  const remove = [...existing.keys()].filter((id) => !wantedIds.has(id));
  const added = write.filter(({ chunk }) => !existing.has(chunk.id)).length;
  return {
    write,
    remove,
    added,
    updated: write.length - added,
    unchanged: wanted.length - write.length,
  };
};

const readChunks = (inputs: ReadonlyArray<string>, options: IngestOptions) =>
  Effect.try({
    try: () => {
      const files = findSourceFiles(inputs);
      if (files.length === 0)
        throw new Error(
          `no ${SUPPORTED_EXTENSIONS.join(", ")} files in ${inputs.join(", ") || "(no inputs)"}`,
        );
      const chunks: DocChunk[] = [];
      const seen = new Map<string, string>();
      for (const file of files) {
        const owner = seen.get(file.source);
        if (owner !== undefined)
          throw new Error(`${owner} and ${file.path} both give the source "${file.source}"`);
        seen.set(file.source, file.path);
        chunks.push(
          ...chunkDocument(file.source, readFileSync(file.path, "utf8"), options.baseUrl, options.chunking),
        );
      }
      return { files: files.length, chunks };
    },
    catch: (cause) => new IngestFailed({ message: cause instanceof Error ? cause.message : String(cause) }),
  });

/** Brings the configured index in line with the documents under `inputs`. */
export const ingest = Effect.fn("ingest")(function* (
  inputs: ReadonlyArray<string>,
  options: IngestOptions = {},
) {
  const { files, chunks } = yield* readChunks(inputs, options);
  const embedder = yield* Embedder;
  const index = yield* ChunkIndex;
  // The embedder's name is part of the hash: switching models re-embeds everything.
  const wanted = chunks.map((chunk) => ({ chunk, hash: contentHash(chunk, embedder.name) }));
  const plan = planChanges(yield* index.existing, wanted);
  const batchSize = options.batchSize ?? 64;
  for (let start = 0; start < plan.write.length; start += batchSize) {
    const batch = plan.write.slice(start, start + batchSize);
    const vectors = yield* embedder.embed(batch.map(({ chunk }) => indexedText(chunk)));
    yield* index.upsert(batch.map(({ chunk, hash }, i) => ({ ...chunk, hash, vector: vectors[i]! })));
    options.onProgress?.(start + batch.length, plan.write.length);
  }
  if (plan.remove.length > 0) yield* index.remove(plan.remove);
  yield* index.persist;
  return {
    files,
    chunks: chunks.length,
    added: plan.added,
    updated: plan.updated,
    removed: plan.remove.length,
    unchanged: plan.unchanged,
  } satisfies IngestReport;
});
