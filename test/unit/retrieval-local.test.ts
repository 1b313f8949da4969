/** The local retriever over an index ingested from the fixture docs: ranking and bad input. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Effect, Layer, Result } from "effect";
import { ingest } from "../../adapters/docs-ingest/ingest.ts";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import * as LocalIndex from "../../adapters/retrieval-local/local-index.ts";
import * as LocalRetriever from "../../adapters/retrieval-local/local-retriever.ts";
import { Embedder, type RetrievedChunk, Retriever } from "../../core/ports/retrieval.ts";

let work: string;
let indexPath: string;

const withRetriever = <A>(
  path: string,
  body: (retriever: Retriever["Service"]) => Effect.Effect<A, unknown>,
  embedder = HashEmbedder.layer,
) =>
  Effect.runPromise(
    Effect.result(
      Effect.gen(function* () {
        return yield* body(yield* Retriever);
      }).pipe(Effect.provide(Layer.provide(LocalRetriever.layer({ indexPath: path }), embedder))),
    ),
  );

const search = async (question: string, k = 5): Promise<ReadonlyArray<RetrievedChunk>> => {
  const result = await withRetriever(indexPath, (retriever) => retriever.retrieve(question, k));
  if (Result.isFailure(result)) throw new Error(String(result.failure));
  return result.success;
};

const failureOf = async (path: string, embedder = HashEmbedder.layer) => {
  const result = await withRetriever(path, (retriever) => retriever.retrieve("anything", 5), embedder);
  if (Result.isSuccess(result)) throw new Error("expected a failure");
  return result.failure as { _tag: string; message: string };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "retrieval-local-"));
  indexPath = join(work, "index.json");
  await Effect.runPromise(
    ingest(["test/fixtures/docs/site"], { baseUrl: "https://docs.example.com" }).pipe(
      Effect.provide(Layer.provideMerge(LocalIndex.layer({ indexPath }), HashEmbedder.layer)),
    ),
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("local retriever ranking", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["How do I write text to a file, replacing it?", "Files API > files.writeText(path, text)"],
    [
      "How can I pipe a large file to a socket without loading it into memory?",
      "Files API > files.openStream(path)",
    ],
    ["How do I get notified when a file changes?", "Files API > files.watch(path, listener)"],
    ["How do I start a TCP server on a port?", "Network API > net.listen(port)"],
    ["How do I close idle connections automatically?", "Network API > Timeouts > net.setTimeout(ms)"],
    ["How much memory do I need to install Widgetron?", "Installing Widgetron > Requirements"],
    ["Is it free software? What licence?", "Frequently asked questions > Is Widgetron free?"],
    ["Where did the configuration file move?", ""],
  ];
  for (const [question, heading] of cases) {
    test(`"${question}" finds "${heading || "notes.txt"}" first`, async () => {
      const [best] = await search(question);
      expect(best?.heading).toBe(heading);
    });
  }

  test("results carry metadata, are ordered by score and cut at k", async () => {
    const results = await search("How do I report a bug?", 3);
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      source: "faq.html",
      title: "Frequently asked questions",
      url: "https://docs.example.com/faq.html#how-do-i-report-a-bug",
    });
    expect(results[0]!.text).toContain("widgetron --diagnostics");
    for (let i = 1; i < results.length; i++)
      expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
    expect(Object.keys(results[0]!).sort()).toEqual([
      "heading",
      "id",
      "score",
      "source",
      "text",
      "title",
      "url",
    ]);
  });

  test("k larger than the index gives every matching chunk once", async () => {
    const results = await search("file", 1000);
    expect(new Set(results.map((r) => r.id)).size).toBe(results.length);
    expect(results.length).toBeLessThan(1000);
  });

  test("an empty question or k < 1 gives no results", async () => {
    expect(await search("   ")).toEqual([]);
    expect(await search("file", 0)).toEqual([]);
    expect(await search("file", -3)).toEqual([]);
    expect(await search("file", Number.NaN)).toEqual([]);
    expect(await search("file", 2.9)).toHaveLength(2);
  });
});

describe("local retriever failures", () => {
  test("a missing index file is a clear RetrievalFailed", async () => {
    const failure = await failureOf(join(work, "nope.json"));
    expect(failure._tag).toBe("RetrievalFailed");
    expect(failure.message).toContain("no index at");
    expect(failure.message).toContain("npm run ingest");
  });

  test("an index built with another embedder is refused", async () => {
    const other = Layer.succeed(Embedder, { ...HashEmbedder.make(64), name: "hash-v1-64" });
    const failure = await failureOf(indexPath, other);
    expect(failure.message).toContain("was built with embedder hash-v1-1024");
  });

  test("a corrupt or truncated index file is a clear RetrievalFailed", async () => {
    const corrupt = join(work, "corrupt.json");
    writeFileSync(corrupt, "{ not json");
    expect((await failureOf(corrupt)).message).toContain(`cannot read the index ${corrupt}`);
    writeFileSync(
      corrupt,
      JSON.stringify({
        version: 1,
        embedder: "hash-v1-1024",
        dimensions: 1024,
        chunks: [{ id: 1 }],
        vectors: "",
        scales: "",
      }),
    );
    expect((await failureOf(corrupt)).message).toContain("malformed chunks");
    writeFileSync(corrupt, JSON.stringify({ version: 99 }));
    expect((await failureOf(corrupt)).message).toContain("index format 99");
  });
});
