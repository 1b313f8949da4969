/** The local retriever over an index ingested from the fixture docs: ranking and bad input. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import { ingest } from "../../adapters/docs-ingest/ingest-collection.ts";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import * as LocalIndex from "../../adapters/retrieval-local/local-index.ts";
import * as LocalRetriever from "../../adapters/retrieval-local/local-retriever.ts";
import { measureRelevance } from "../../core/answers/relevance.ts";
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
      }).pipe(Effect.provide(Layer.provide(LocalRetriever.layer({ indexPath: path, pollMs: 0 }), embedder))),
    ),
  );

const retrieval = async (question: string, k = 5) => {
  const result = await withRetriever(indexPath, (retriever) => retriever.retrieve(question, k));
  if (Result.isFailure(result)) throw new Error(String(result.failure));
  return result.success;
};
const search = async (question: string, k = 5): Promise<ReadonlyArray<RetrievedChunk>> =>
  (await retrieval(question, k)).chunks;

const ingestInto = (path: string, docs: string) =>
  Effect.runPromise(
    ingest([docs], { baseUrl: "https://docs.example.com" }).pipe(
      Effect.provide(Layer.provideMerge(LocalIndex.layer({ indexPath: path }), HashEmbedder.layer)),
    ),
  );

const failureOf = async (path: string, embedder = HashEmbedder.layer) => {
  const result = await withRetriever(path, (retriever) => retriever.retrieve("anything", 5), embedder);
  if (Result.isSuccess(result)) throw new Error("expected a failure");
  return result.failure as { _tag: string; message: string };
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "retrieval-local-"));
  indexPath = join(work, "index.bin");
  await ingestInto(indexPath, "test/fixtures/docs/site");
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
    ["Where did the configuration file move?", "notes.txt"],
  ];
  for (const [question, place] of cases) {
    test(`"${question}" finds "${place}" first`, async () => {
      const [best] = await search(question);
      expect([best?.title, best?.heading].filter((part) => part !== "").join(" > ")).toBe(place);
    });
  }

  test("evidence: a question the docs cover is covered, an off-topic one is not", async () => {
    const covered = await retrieval("How do I start a TCP server on a port?");
    expect(measureRelevance(covered.evidence).coverage).toBeGreaterThan(0.8);
    expect(measureRelevance(covered.evidence).known).toBe(1);
    const offTopic = await retrieval("What is the weather in Paris tomorrow?");
    expect(measureRelevance(offTopic.evidence).coverage).toBeLessThan(0.3);
    expect(offTopic.indexVersion).toBe(covered.indexVersion);
    expect(covered.indexVersion).toMatch(/^[0-9a-f]{16}$/);
  });

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
    expect(failure.message).toContain("was built with embedder hash-v4-1024");
  });

  test("a corrupt, truncated or foreign index file is a clear RetrievalFailed", async () => {
    const corrupt = join(work, "corrupt.bin");
    writeFileSync(corrupt, "{ not an index }");
    expect((await failureOf(corrupt)).message).toContain(
      `cannot read the index ${corrupt}: not an index file`,
    );
    const good = readFileSync(indexPath);
    writeFileSync(corrupt, good.subarray(0, Math.floor(good.length / 2)));
    expect((await failureOf(corrupt)).message).toContain("truncated");
    writeFileSync(corrupt, good.subarray(0, 6));
    expect((await failureOf(corrupt)).message).toContain("cannot read the index");
    const header = Buffer.from(good);
    const text = header.toString("latin1");
    const at = text.indexOf('"format":2');
    header.write('"format":9', at, "latin1");
    writeFileSync(corrupt, header);
    expect((await failureOf(corrupt)).message).toContain("index format 9");
  });
});

describe("live re-index", () => {
  test("a running retriever swaps in a finished ingest and announces it; requests never fail", async () => {
    const docs = join(work, "live-docs");
    cpSync("test/fixtures/docs/site", docs, { recursive: true });
    const path = join(work, "live.bin");
    await ingestInto(path, docs);
    const loads: Array<{ reason: string; files: number; chunks: number; version: string }> = [];
    const program = Effect.gen(function* () {
      const retriever = yield* Retriever;
      const before = yield* retriever.retrieve("quokka migration", 5);
      writeFileSync(join(docs, "quokka.md"), "# Quokkas\n\nThe quokka migration happens in spring.\n");
      yield* Effect.promise(() => ingestInto(path, docs));
      let after = before;
      for (let i = 0; i < 100 && after.indexVersion === before.indexVersion; i++) {
        yield* Effect.sleep("20 millis");
        after = yield* retriever.retrieve("quokka migration", 5);
      }
      return { before, after };
    }).pipe(
      Effect.provide(
        Layer.provide(
          LocalRetriever.layer({ indexPath: path, pollMs: 10, onLoad: (event) => loads.push(event) }),
          HashEmbedder.layer,
        ),
      ),
      Effect.scoped,
    );
    const { before, after } = await Effect.runPromise(program);
    expect(before.chunks.some((c) => c.source === "quokka.md")).toBe(false);
    expect(after.indexVersion).not.toBe(before.indexVersion);
    expect(after.chunks[0]?.source).toBe("quokka.md");
    expect(loads.map((l) => l.reason)).toEqual(["start", "reload"]);
    expect(loads[1]!.files).toBe(loads[0]!.files + 1);
    expect(loads[1]!.chunks).toBe(loads[0]!.chunks + 1);
  });

  test("a damaged new file keeps the previous index in service and reports the failure", async () => {
    const path = join(work, "damaged.bin");
    await ingestInto(path, "test/fixtures/docs/site");
    const failures: string[] = [];
    const program = Effect.gen(function* () {
      const retriever = yield* Retriever;
      const before = yield* retriever.retrieve("tcp server", 5);
      writeFileSync(path, "garbage");
      for (let i = 0; i < 100 && failures.length === 0; i++) yield* Effect.sleep("20 millis");
      return { before, after: yield* retriever.retrieve("tcp server", 5) };
    }).pipe(
      Effect.provide(
        Layer.provide(
          LocalRetriever.layer({
            indexPath: path,
            pollMs: 10,
            onReloadFailed: (message) => failures.push(message),
          }),
          HashEmbedder.layer,
        ),
      ),
      Effect.scoped,
    );
    const { before, after } = await Effect.runPromise(program);
    expect(failures[0]).toContain("not an index file");
    expect(after).toEqual(before);
  });
});
