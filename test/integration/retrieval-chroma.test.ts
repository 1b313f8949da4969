/** Chroma as the vector index, against a real `chroma run` server on a free loopback port. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { chunkDocument } from "../../adapters/docs-ingest/document.ts";
import { ingest } from "../../adapters/docs-ingest/ingest-collection.ts";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import { ChromaIndex, ChromaRetriever } from "../../adapters/retrieval-chroma/index.ts";
import { measureRelevance } from "../../core/answers/relevance.ts";
import { ChunkIndex, Embedder, Retriever } from "../../core/ports/retrieval.ts";
import { type LocalChroma, startLocalChroma } from "../support/chroma-server.ts";
import { freePort } from "../support/free-port.ts";

let chroma: LocalChroma;
let work: string;
let docs: string;

const options = (collection: string) => ({
  url: chroma.url,
  apiKey: undefined,
  collection,
  retries: 1,
  pollMs: 0,
});

const runIngest = (collection: string, extra: { rebuild?: boolean; embedder?: Layer.Layer<Embedder> } = {}) =>
  Effect.runPromise(
    ingest([docs], { baseUrl: "https://docs.example.com" }).pipe(
      Effect.provide(
        Layer.provideMerge(
          ChromaIndex.layer({ ...options(collection), rebuild: extra.rebuild }),
          extra.embedder ?? HashEmbedder.layer,
        ),
      ),
    ),
  );

const withRetriever = <A, E>(
  collection: string,
  body: (r: Retriever["Service"]) => Effect.Effect<A, E>,
  embedder: Layer.Layer<Embedder> = HashEmbedder.layer,
) =>
  Effect.runPromise(
    Effect.result(
      Effect.gen(function* () {
        return yield* body(yield* Retriever);
      }).pipe(Effect.provide(Layer.provide(ChromaRetriever.layer(options(collection)), embedder))),
    ),
  );

const retrieval = async (collection: string, question: string, k = 5) => {
  const result = await withRetriever(collection, (r) => r.retrieve(question, k));
  if (Result.isFailure(result)) throw new Error(result.failure.message);
  return result.success;
};
const retrieve = async (collection: string, question: string, k = 5) =>
  (await retrieval(collection, question, k)).chunks;

beforeAll(async () => {
  chroma = await startLocalChroma();
  work = mkdtempSync(join(tmpdir(), "chroma-test-"));
  docs = join(work, "docs");
  cpSync("test/fixtures/docs/site", docs, { recursive: true });
});
afterAll(async () => {
  await chroma?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("Chroma index and retriever", () => {
  test("ingest upserts every chunk, and a query finds the right one first with its metadata", async () => {
    const report = await runIngest("docs-main");
    expect(report).toMatchObject({ added: report.chunks, updated: 0, removed: 0 });
    const [best, ...rest] = await retrieve("docs-main", "How do I start a TCP server on a port?", 3);
    expect(best).toMatchObject({
      heading: "net.listen(port)",
      source: "api/network.md",
      title: "Network API",
    });
    expect(best!.url).toBe("https://docs.example.com/api/network.html#netlistenport");
    expect(best!.text).toContain("Starts a TCP server");
    expect(rest).toHaveLength(2);
    expect(best!.score).toBeGreaterThan(rest[0]!.score);
  });

  test("the lexical index beside Chroma gives the same ranking and evidence as the local index", async () => {
    const covered = await retrieval("docs-main", "How do I start a TCP server on a port?");
    expect(measureRelevance(covered.evidence).coverage).toBeGreaterThan(0.8);
    expect(covered.indexVersion).toMatch(/^[0-9a-f]{16}$/);
    const offTopic = await retrieval("docs-main", "What is the weather in Paris tomorrow?");
    expect(measureRelevance(offTopic.evidence).coverage).toBeLessThan(0.3);
    // A word only the lexical side can match exactly (no vector neighbour needed).
    const [licence] = await retrieve("docs-main", "MIT licence", 1);
    expect(licence?.heading).toBe("Is Widgetron free?");
  });

  test("a running retriever follows a finished ingest (new version in the collection's metadata)", async () => {
    await runIngest("docs-live");
    const loads: string[] = [];
    const layer = Layer.provide(
      ChromaRetriever.layer({
        ...options("docs-live"),
        pollMs: 20,
        onLoad: (event) => loads.push(event.reason),
      }),
      HashEmbedder.layer,
    );
    const extra = join(docs, "guide/quokka.md");
    const program = Effect.gen(function* () {
      const retriever = yield* Retriever;
      const before = yield* retriever.retrieve("quokka migration spring", 3);
      writeFileSync(extra, "# Quokkas\n\nThe quokka migration happens in spring.\n");
      yield* Effect.promise(() => runIngest("docs-live"));
      let after = before;
      for (let i = 0; i < 150 && after.indexVersion === before.indexVersion; i++) {
        yield* Effect.sleep("20 millis");
        after = yield* retriever.retrieve("quokka migration spring", 3);
      }
      return { before, after };
    }).pipe(Effect.provide(layer), Effect.scoped);
    try {
      const { before, after } = await Effect.runPromise(program);
      expect(before.chunks.some((c) => c.source === "guide/quokka.md")).toBe(false);
      expect(after.indexVersion).not.toBe(before.indexVersion);
      expect(after.chunks[0]?.source).toBe("guide/quokka.md");
      expect(loads).toEqual(["start", "reload"]);
    } finally {
      unlinkSync(extra);
    }
  });

  test("re-ingesting is incremental: unchanged, one update, a deleted file's chunks removed", async () => {
    const first = await runIngest("docs-incremental");
    expect(await runIngest("docs-incremental")).toMatchObject({
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: first.chunks,
    });
    const network = join(docs, "api/network.md");
    const original = readFileSync(network, "utf8");
    writeFileSync(network, original.replace("remote server.", "remote server over QUIC."));
    const install = readFileSync(join(docs, "guide/install.md"), "utf8");
    const installChunks = chunkDocument("guide/install.md", install).length;
    unlinkSync(join(docs, "guide/install.md"));
    try {
      const report = await runIngest("docs-incremental");
      expect(installChunks).toBeGreaterThan(1);
      expect(report).toMatchObject({ added: 0, updated: 1, removed: installChunks });
      expect(report.unchanged).toBe(first.chunks - installChunks - 1);
      const found = await retrieve("docs-incremental", "remote server over QUIC", 1);
      expect(found[0]!.text).toContain("over QUIC");
      const all = await retrieve("docs-incremental", "install widgetron requirements uninstall", 100);
      expect(all.some((chunk) => chunk.source === "guide/install.md")).toBe(false);
      expect(all).toHaveLength(first.chunks - installChunks);
    } finally {
      writeFileSync(network, original);
      writeFileSync(join(docs, "guide/install.md"), install);
    }
  });

  test("the ChunkIndex reports stored hashes and deletes by id", async () => {
    await runIngest("docs-direct");
    const program = Effect.gen(function* () {
      const index = yield* ChunkIndex;
      const before = yield* index.existing;
      const [someId] = [...before.keys()];
      yield* index.remove([someId!]);
      const after = yield* index.existing;
      return { before, after, someId: someId! };
    });
    const { before, after, someId } = await Effect.runPromise(
      program.pipe(
        Effect.provide(Layer.provideMerge(ChromaIndex.layer(options("docs-direct")), HashEmbedder.layer)),
      ),
    );
    expect(after.size).toBe(before.size - 1);
    expect(after.has(someId)).toBe(false);
    expect([...before.values()].every((entry) => /^[0-9a-f]{40}$/.test(entry.hash))).toBe(true);
    expect(new Set([...before.values()].map((entry) => entry.collection))).toEqual(new Set(["docs"]));
  });

  test("a collection built with another embedder is refused, unless rebuilt", async () => {
    await runIngest("docs-embedder");
    const other = Layer.succeed(Embedder, { ...HashEmbedder.make(64), name: "hash-v1-64" });
    await expect(runIngest("docs-embedder", { embedder: other })).rejects.toThrow(
      /holds vectors of embedder hash-v4-1024/,
    );
    const reading = await withRetriever("docs-embedder", (r) => r.retrieve("tcp", 1), other);
    expect(Result.isFailure(reading) && reading.failure.message).toContain("hash-v4-1024");
    const rebuilt = await runIngest("docs-embedder", { embedder: other, rebuild: true });
    expect(rebuilt.added).toBe(rebuilt.chunks);
    const [best] = Result.getOrThrow(
      await withRetriever("docs-embedder", (r) => r.retrieve("tcp server port", 1), other),
    ).chunks;
    expect(best!.source).toBe("api/network.md");
  });
});

describe("Chroma failures", () => {
  test("a missing collection is a clear error, not an empty answer", async () => {
    const result = await withRetriever("never-ingested", (r) => r.retrieve("tcp", 3));
    expect(Result.isFailure(result) && result.failure.message).toContain('no collection "never-ingested"');
  });

  test("an invalid collection name is refused before any request", async () => {
    const result = await withRetriever("x", (r) => r.retrieve("tcp", 3));
    expect(Result.isFailure(result) && result.failure.message).toContain(
      "not a valid Chroma collection name",
    );
  });

  test("an unreachable server fails with RetrievalFailed after retrying, and ping fails too", async () => {
    const port = await freePort();
    const down = {
      url: `http://127.0.0.1:${port}`,
      apiKey: Redacted.make("secret-key-123"),
      collection: "docs-main",
      retries: 2,
    };
    const layer = Layer.provide(ChromaRetriever.layer(down), HashEmbedder.layer);
    const outcome = (body: (r: Retriever["Service"]) => Effect.Effect<unknown, { message: string }>) =>
      Effect.runPromise(
        Effect.result(
          Effect.gen(function* () {
            return yield* body(yield* Retriever);
          }).pipe(Effect.provide(layer)),
        ),
      );
    const query = await outcome((r) => r.retrieve("tcp", 3));
    const ping = await outcome((r) => r.ping);
    for (const result of [query, ping]) {
      expect(Result.isFailure(result)).toBe(true);
      if (Result.isFailure(result)) {
        expect(result.failure).toMatchObject({ _tag: "RetrievalFailed" });
        expect(result.failure.message).toMatch(/Chroma .* failed/);
        expect(result.failure.message).not.toContain("secret-key-123");
      }
    }
  });

  test("an empty question or k < 1 asks nothing and gives nothing", async () => {
    expect(await retrieve("docs-main", "  ")).toEqual([]);
    expect(await retrieve("docs-main", "tcp", 0)).toEqual([]);
  });
});
