/**
 * Retriever over a Chroma collection filled by ingest, as good as the local index: Chroma gives
 * the nearest neighbours of the question's vector, and a BM25F index kept beside it (built from
 * the collection's own documents when first needed) gives the lexical ranking over every
 * chunk; both are fused exactly as the local index does, and the same relevance evidence comes
 * from the lexical side. Chroma's self-hosted server has no full-text ranking of its own (its
 * `$contains` filter only filters), which is why the lexical index lives here.
 *
 * The collection's metadata carries the index version written at the end of every ingest;
 * it is checked every `pollMs`, and a new version is loaded in the background and swapped in
 * whole, so a running service follows re-ingests without a restart. The service starts even
 * while Chroma is down: the first retrieval loads (with retries) and fails with a 503 until then.
 */
import type { Collection } from "chromadb";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { NO_EVIDENCE } from "../../core/answers/relevance.ts";
import { Embedder, type Retrieval, Retriever } from "../../core/ports/retrieval.ts";
import { questionVector } from "../shared/question-vector.ts";
import { askedIn, CANDIDATES, fusedRetrieval } from "../shared/ranking/hybrid.ts";
import {
  type ChromaOptions,
  checkCollectionName,
  checkEmbedder,
  chromaCall,
  makeClient,
  openCollection,
} from "./client.ts";
import { type ChromaSnapshot, loadSnapshot, versionIn } from "./snapshot.ts";

/** Told whenever the collection is loaded: at first use and after each re-index. */
export interface CollectionLoaded {
  readonly reason: "start" | "reload";
  readonly collection: string;
  readonly files: number;
  readonly chunks: number;
  readonly version: string;
  /** An estimate of what the loaded snapshot holds in memory (snapshot.ts `heldBytes`). */
  readonly bytes: number;
  /** The language the lexical side was analysed in. */
  readonly language: string;
}

export interface ChromaRetrieverOptions extends ChromaOptions {
  /** The docs' language (ISO 639-1); undefined: detected from the collection's documents at each load. */
  readonly language?: string | undefined;
  /** How often the collection's version is checked (default 2000 ms; 0: never). */
  readonly pollMs?: number;
  readonly onLoad?: (event: CollectionLoaded) => void;
}

/** Builds the Retriever without contacting Chroma; fails at once only on a malformed collection name. */
export const make = Effect.fn("ChromaRetriever.make")(function* (options: ChromaRetrieverOptions) {
  yield* checkCollectionName(options.collection);
  const embedder = yield* Embedder;
  const client = makeClient(options);
  let opened: Collection | undefined;
  let snapshot: ChromaSnapshot | undefined;
  const collection = Effect.suspend(() =>
    opened !== undefined
      ? Effect.succeed(opened)
      : openCollection(client, options).pipe(
          Effect.flatMap((found) => checkEmbedder(found, embedder.name, "re-run ingest")),
          Effect.tap((found) => Effect.sync(() => (opened = found))),
        ),
  );
  const load = (found: Collection, reason: CollectionLoaded["reason"]) =>
    Effect.tap(loadSnapshot(options, found), (loaded) =>
      Effect.sync(() => {
        snapshot = loaded;
        options.onLoad?.({ reason, collection: options.collection, ...loaded.summary });
      }),
    );
  const current = Effect.suspend(() =>
    snapshot !== undefined
      ? Effect.succeed(snapshot)
      : Effect.flatMap(collection, (found) => load(found, "start")),
  );

  const retrieve = Effect.fn("ChromaRetriever.retrieve")(function* (question: string, k: number) {
    const loaded = yield* current;
    const languages = askedIn(question, loaded.lexical.analysis.language);
    const empty: Retrieval = {
      chunks: [],
      evidence: NO_EVIDENCE,
      indexVersion: loaded.version,
      ...languages,
    };
    const asked = yield* questionVector(embedder, question, k);
    if (asked === undefined) return empty;
    const found = yield* collection;
    const result = yield* chromaCall(options, "query", () =>
      found.query({ queryEmbeddings: [Array.from(asked.vector)], nResults: CANDIDATES, include: [] }),
    );
    // Ids written after our snapshot are skipped until the next reload.
    const byVector = (result.ids[0] ?? []).flatMap((id) => loaded.rowOf.get(id) ?? []);
    const { chunks, evidence } = fusedRetrieval({
      question,
      lexical: loaded.lexical,
      byVector,
      pageOf: (row) => loaded.chunks[row]!.source,
      limit: asked.limit,
      chunkOf: (row) => {
        const { collection: _collection, ...chunk } = loaded.chunks[row]!;
        return chunk;
      },
    });
    return { chunks, evidence, indexVersion: loaded.version, ...languages } satisfies Retrieval;
  });

  // A newer version in the collection's metadata means an ingest finished: load it beside the current one.
  let checking = false;
  const check = Effect.gen(function* () {
    if (snapshot === undefined) return;
    const fresh = yield* openCollection(client, options);
    if (versionIn(fresh) !== snapshot.version) {
      opened = yield* checkEmbedder(fresh, embedder.name, "re-run ingest");
      yield* load(opened, "reload");
    }
  }).pipe(Effect.ignore, Effect.ensuring(Effect.sync(() => (checking = false))));
  const pollMs = options.pollMs ?? 2000;
  if (pollMs > 0) {
    const timer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        setInterval(() => {
          if (checking) return;
          checking = true;
          Effect.runFork(check);
        }, pollMs),
      ),
      (handle) => Effect.sync(() => clearInterval(handle)),
    );
    timer.unref?.();
  }
  return Retriever.of({
    retrieve,
    // The snapshot already holds every chunk: listing is free once it is loaded.
    listing: Effect.map(current, (loaded) => ({ version: loaded.version, chunks: loaded.chunks })),
    // Readiness asks once, without retries, and opens the collection: a missing one is named.
    ping: Effect.asVoid(openCollection(client, { ...options, retries: 0 })),
  });
});

/** Retriever over the Chroma collection; needs the Embedder that filled it. */
export const layer = (options: ChromaRetrieverOptions) => Layer.effect(Retriever, make(options));
