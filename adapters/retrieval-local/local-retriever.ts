/**
 * The embedded default retriever: no server. It reads the index file written by ingest (texts,
 * vectors and BM25F postings, all prebuilt) and answers each question by fusing the BM25F
 * ranking with the vector ranking. A finished ingest is picked up while the service runs: the
 * file is checked every `pollMs`, and a changed one is loaded beside the current one and then
 * swapped in by one assignment, so a request uses either the old index or the new one, never a
 * mix, and none fails during the swap. A file that cannot be read keeps the current index.
 */
import { statSync } from "node:fs";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { NO_EVIDENCE } from "../../core/answers/relevance.ts";
import {
  Embedder,
  type IndexListing,
  type ListedChunk,
  type Retrieval,
  RetrievalFailed,
  Retriever,
} from "../../core/ports/retrieval.ts";
import { questionVector } from "../shared/question-vector.ts";
import { bm25Searcher } from "../shared/ranking/bm25.ts";
import { askedIn, CANDIDATES, fusedRetrieval } from "../shared/ranking/hybrid.ts";
import { type IndexData, readIndexFile } from "./index-file.ts";
import { nearest } from "./vectors.ts";

/** Told whenever an index is loaded: at start and after each re-index. */
export interface IndexLoaded {
  readonly reason: "start" | "reload";
  readonly path: string;
  readonly files: number;
  readonly chunks: number;
  readonly version: string;
  /** What the loaded index holds in memory: its file's size (the snapshot keeps the file's bytes and decodes from them). */
  readonly bytes: number;
  /** The language the index was analysed in (its file says: the analysis its terms were cut by). */
  readonly language: string;
}

export interface LocalRetrieverOptions {
  readonly indexPath: string;
  /** How often the file is checked for a new index (default 1000 ms; 0: never). */
  readonly pollMs?: number;
  readonly onLoad?: (event: IndexLoaded) => void;
  /** A re-index that could not be loaded (the current index stays). */
  readonly onReloadFailed?: (message: string) => void;
}

interface Snapshot {
  readonly data: IndexData;
  readonly bytes: number;
  readonly lexical: ReturnType<typeof bm25Searcher>;
  /** Every chunk decoded, once per snapshot and only when first asked for. */
  readonly listing: () => IndexListing;
}

const listingOf = (data: IndexData): IndexListing => ({
  version: data.version,
  chunks: Array.from({ length: data.count }, (_, i): ListedChunk => {
    const { hash: _hash, ...chunk } = data.chunk(i);
    return chunk;
  }),
});

const snapshotOf = (data: IndexData, bytes: number): Snapshot => {
  let listed: IndexListing | undefined;
  return {
    data,
    bytes,
    lexical: bm25Searcher(data.lexical),
    listing: () => (listed ??= listingOf(data)),
  };
};

/** Answers from whatever snapshot `current()` gives at the start of the call. */
const retrieverOver = (current: () => Snapshot, embedder: Embedder["Service"]): Retriever["Service"] => {
  const retrieve = Effect.fn("LocalRetriever.retrieve")(function* (question: string, k: number) {
    const { data, lexical } = current();
    const languages = askedIn(question, lexical.analysis.language);
    const empty: Retrieval = { chunks: [], evidence: NO_EVIDENCE, indexVersion: data.version, ...languages };
    const asked = yield* questionVector(embedder, question, k);
    if (asked === undefined) return empty;
    const byVector = nearest(data.vectors, asked.vector, CANDIDATES).map(([row]) => row);
    const { chunks, evidence } = fusedRetrieval({
      question,
      lexical,
      byVector,
      pageOf: data.pageOf,
      limit: asked.limit,
      chunkOf: (row) => {
        const { hash: _hash, collection: _collection, ...chunk } = data.chunk(row);
        return chunk;
      },
    });
    return { chunks, evidence, indexVersion: data.version, ...languages } satisfies Retrieval;
  });
  return { retrieve, listing: Effect.sync(() => current().listing()), ping: Effect.void };
};

/** Loads the index file and checks that it was built with the same embedder. */
const loadIndex = (indexPath: string, embedder: Embedder["Service"]) =>
  Effect.flatMap(readIndexFile(indexPath), (data) => {
    if (data === undefined)
      return Effect.fail(
        new RetrievalFailed({
          message: `no index at ${indexPath}: run \`npm run ingest -- <docs folder>\` first (or set INDEX_PATH)`,
        }),
      );
    if (data.embedder !== embedder.name || data.dimensions !== embedder.dimensions)
      return Effect.fail(
        new RetrievalFailed({
          message: `${indexPath} was built with embedder ${data.embedder} (${data.dimensions} dimensions) but ${embedder.name} (${embedder.dimensions}) is configured: re-run ingest`,
        }),
      );
    return Effect.succeed(data);
  });

/** What identifies one written file: a rename gives a new inode, a rewrite a new mtime or size. */
const fileStamp = (path: string): string => {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? "" : `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
};

/** The size in a stamp, read together with it (a stamp of a missing file: 0). */
const sizeIn = (stamp: string): number => Number(stamp.split(":")[2] ?? 0);

/** Retriever over the local index file at `indexPath`; needs the Embedder that built it. */
export const layer = (options: LocalRetrieverOptions) =>
  Layer.effect(
    Retriever,
    Effect.gen(function* () {
      const embedder = yield* Embedder;
      const { indexPath } = options;
      let stamp = fileStamp(indexPath);
      let snapshot = snapshotOf(yield* loadIndex(indexPath, embedder), sizeIn(stamp));
      const announce = (reason: IndexLoaded["reason"]) =>
        options.onLoad?.({
          reason,
          path: indexPath,
          files: snapshot.data.files,
          chunks: snapshot.data.count,
          version: snapshot.data.version,
          bytes: snapshot.bytes,
          language: snapshot.data.lexical.language,
        });
      announce("start");
      const reload = () => {
        const now = fileStamp(indexPath);
        if (now === stamp || now === "") return;
        stamp = now;
        Effect.runSync(
          loadIndex(indexPath, embedder).pipe(
            Effect.match({
              onFailure: (error) => options.onReloadFailed?.(error.message),
              onSuccess: (data) => {
                snapshot = snapshotOf(data, sizeIn(now));
                announce("reload");
              },
            }),
          ),
        );
      };
      const pollMs = options.pollMs ?? 1000;
      if (pollMs > 0) {
        const timer = yield* Effect.acquireRelease(
          Effect.sync(() => setInterval(reload, pollMs)),
          (handle) => Effect.sync(() => clearInterval(handle)),
        );
        // The poll must not keep a process alive that is otherwise done (CLIs, tests).
        timer.unref?.();
      }
      return retrieverOver(() => snapshot, embedder);
    }),
  );
