/**
 * The Retriever's listing, one suite run against both indexes (the local file and a real
 * Chroma server): every ingested chunk once, the version retrieval reports, the same pages from
 * both, and a new version with the new chunks after a re-ingest.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { ingest } from "../../adapters/docs-ingest/ingest-collection.ts";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import { ChromaIndex, ChromaRetriever } from "../../adapters/retrieval-chroma/index.ts";
import * as LocalIndex from "../../adapters/retrieval-local/local-index.ts";
import * as LocalRetriever from "../../adapters/retrieval-local/local-retriever.ts";
import { docPages } from "../../core/doc-pages.ts";
import {
  ChunkIndex,
  type Embedder,
  type IndexListing,
  type RetrievalFailed,
  Retriever,
} from "../../core/ports/retrieval.ts";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";

let chroma: LocalChroma;
let work: string;

interface Backend {
  readonly name: string;
  readonly writer: () => Layer.Layer<ChunkIndex, RetrievalFailed, Embedder>;
  /** A fresh retriever each time, as a restarted service would have. */
  readonly reader: () => Layer.Layer<Retriever, RetrievalFailed, Embedder>;
}

const backends: ReadonlyArray<Backend> = [
  {
    name: "local index",
    writer: () => LocalIndex.layer({ indexPath: join(work, "index.bin") }),
    reader: () => LocalRetriever.layer({ indexPath: join(work, "index.bin"), pollMs: 0 }),
  },
  {
    name: "Chroma",
    writer: () =>
      ChromaIndex.layer({ url: chroma.url, apiKey: undefined, collection: "listing", retries: 1 }),
    reader: () =>
      ChromaRetriever.layer({
        url: chroma.url,
        apiKey: undefined,
        collection: "listing",
        retries: 1,
        pollMs: 0,
      }),
  },
];

const ingestInto = (backend: Backend, docs: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      yield* ingest([docs], { baseUrl: "https://docs.example.com" });
      return yield* Effect.flatMap(ChunkIndex, (index) => index.existing);
    }).pipe(Effect.provide(Layer.provideMerge(backend.writer(), HashEmbedder.layer))),
  );

const read = (backend: Backend) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const retriever = yield* Retriever;
      const listing = yield* retriever.listing;
      const { indexVersion } = yield* retriever.retrieve("How do I start a TCP server?", 3);
      return { listing, indexVersion };
    }).pipe(Effect.provide(Layer.provide(backend.reader(), HashEmbedder.layer))),
  );

beforeAll(async () => {
  chroma = await startLocalChroma();
  work = mkdtempSync(join(tmpdir(), "listing-"));
});
afterAll(async () => {
  await chroma?.stop();
  rmSync(work, { recursive: true, force: true });
});

const firstListings = new Map<string, IndexListing>();

describe.each(backends)("Retriever.listing on the $name", (backend) => {
  const docs = () => join(work, `docs-${backend.name.replace(/\W/g, "")}`, "site");

  test("lists every ingested chunk once, under the version retrieval reports", async () => {
    cpSync("test/fixtures/docs/site", docs(), { recursive: true });
    const stored = await ingestInto(backend, docs());
    const { listing, indexVersion } = await read(backend);
    expect(listing.version).toBe(indexVersion);
    expect(listing.version).not.toBe("");
    expect(listing.chunks.map((chunk) => chunk.id).sort()).toEqual([...stored.keys()].sort());
    for (const chunk of listing.chunks)
      expect(chunk.collection).toBe(stored.get(chunk.id)?.collection ?? "?");
    firstListings.set(backend.name, listing);
  });

  test("a re-ingest gives a new version that lists the new page", async () => {
    writeFileSync(join(docs(), "upgrade.md"), "# Upgrading\n\nRun `widgetron migrate` first.\n");
    await ingestInto(backend, docs());
    const { listing } = await read(backend);
    expect(listing.version).not.toBe(firstListings.get(backend.name)?.version);
    expect(listing.chunks.some((chunk) => chunk.source === "upgrade.md")).toBe(true);
  });
});

test("both indexes give the same pages", () => {
  const [local, remote] = backends.map((backend) => firstListings.get(backend.name));
  expect(local).toBeDefined();
  expect(docPages(remote?.chunks ?? [])).toEqual(docPages(local?.chunks ?? []));
});
