/**
 * The transformers embedder loads and runs a real ONNX model through @huggingface/transformers
 * and onnxruntime-node. No weights can be downloaded here, so the test builds a tiny BERT-shaped
 * model with random weights itself and checks the output against the same maths done by hand.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoTokenizer } from "@huggingface/transformers";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import { ingest } from "../../adapters/docs-ingest/ingest-collection.ts";
import * as TransformersEmbedder from "../../adapters/embed-transformers/transformers-embedder.ts";
import * as LocalIndex from "../../adapters/retrieval-local/local-index.ts";
import * as LocalRetriever from "../../adapters/retrieval-local/local-retriever.ts";
import { Embedder, Retriever } from "../../core/ports/retrieval.ts";
import { TINY_VOCABULARY, tinyWeights, writeTinyModel } from "../support/tiny-model/tiny-model.ts";

const HIDDEN = 24;
let work: string;
let modelDir: string;

const withEmbedder = <A, E>(
  options: TransformersEmbedder.TransformersOptions,
  body: (e: Embedder["Service"]) => Effect.Effect<A, E>,
) =>
  Effect.runPromise(
    Effect.result(
      Effect.gen(function* () {
        return yield* body(yield* Embedder);
      }).pipe(Effect.provide(TransformersEmbedder.layer(options))),
    ),
  );

/** The model's maths by hand: mean of (word + type-0 embedding) over the tokens, L2-normalised. */
const expectedEmbedding = async (text: string, words: Float32Array, types: Float32Array) => {
  const tokenizer = await AutoTokenizer.from_pretrained("tiny", { local_files_only: true });
  const ids = tokenizer.encode(text);
  const sum = new Float64Array(HIDDEN);
  for (const id of ids) for (let d = 0; d < HIDDEN; d++) sum[d]! += words[id * HIDDEN + d]! + types[d]!;
  const mean = Array.from(sum, (x) => x / ids.length);
  const norm = Math.hypot(...mean);
  return { ids, vector: mean.map((x) => x / norm) };
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "tiny-model-"));
  modelDir = writeTinyModel(join(work, "models", "tiny"), { hidden: HIDDEN, seed: 7 });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("transformers embedder on a tiny local model", () => {
  test("loads from a folder path, reports name and width, gives unit vectors", async () => {
    const result = await withEmbedder({ model: modelDir }, (embedder) =>
      Effect.map(embedder.embed(["read a file", "hello world"]), (vectors) => ({ embedder, vectors })),
    );
    const { embedder, vectors } = Result.getOrThrow(result);
    expect(embedder.name).toBe("transformers:tiny");
    expect(embedder.dimensions).toBe(HIDDEN);
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect([...vectors[0]!]).not.toEqual([...vectors[1]!]);
  });

  test("output equals tokenizer + embedding lookup + masked mean pooling done by hand", async () => {
    const { env } = await import("@huggingface/transformers");
    env.localModelPath = join(work, "models/");
    env.allowRemoteModels = false;
    const weights = tinyWeights(TINY_VOCABULARY.length, HIDDEN, 7);
    const texts = ["how do I read a file", "stream"];
    const result = await withEmbedder(
      { model: "tiny", localModelPath: join(work, "models"), allowRemote: false },
      (embedder) => embedder.embed(texts),
    );
    const vectors = Result.getOrThrow(result);
    for (const [i, text] of texts.entries()) {
      const expected = await expectedEmbedding(text, weights.words, weights.types);
      expect(expected.ids[0]).toBe(TINY_VOCABULARY.indexOf("[CLS]"));
      for (let d = 0; d < HIDDEN; d++) expect(vectors[i]![d]!).toBeCloseTo(expected.vector[d]!, 4);
    }
  });

  test("a batch gives the same vectors as one text at a time (padding is masked)", async () => {
    const texts = ["a", "a much longer text about writing files to a directory on the server", "buffer"];
    const result = await withEmbedder({ model: modelDir, batchSize: 2 }, (embedder) =>
      Effect.all([embedder.embed(texts), Effect.forEach(texts, (text) => embedder.embed([text]))]),
    );
    const [batched, single] = Result.getOrThrow(result);
    texts.forEach((_, i) => {
      for (let d = 0; d < HIDDEN; d++) expect(batched[i]![d]!).toBeCloseTo(single[i]![0]![d]!, 5);
    });
  });

  test("a missing model fails with EmbeddingFailed naming the model and where it looked", async () => {
    const result = await withEmbedder(
      { model: "nobody/no-such-model", localModelPath: join(work, "models"), allowRemote: false },
      (e) => e.embed(["x"]),
    );
    expect(Result.isFailure(result)).toBe(true);
    if (Result.isFailure(result)) {
      expect(result.failure._tag).toBe("EmbeddingFailed");
      expect(result.failure.message).toContain('cannot load embedding model "nobody/no-such-model"');
      expect(result.failure.message).toContain(join(work, "models"));
      expect(result.failure.message).not.toContain("Hugging Face hub");
    }
  });

  test("ingest and the local retriever work end to end with it", async () => {
    const indexPath = join(work, "index.bin");
    const embedder = TransformersEmbedder.layer({ model: modelDir });
    const program = Effect.gen(function* () {
      const report = yield* ingest(["test/fixtures/docs/site"]).pipe(
        Effect.provide(Layer.provideMerge(LocalIndex.layer({ indexPath }), embedder)),
      );
      const results = yield* Effect.gen(function* () {
        return (yield* (yield* Retriever).retrieve("How do I start a TCP server on a port?", 3)).chunks;
      }).pipe(Effect.provide(Layer.provide(LocalRetriever.layer({ indexPath, pollMs: 0 }), embedder)));
      return { report, results };
    });
    const { report, results } = await Effect.runPromise(program);
    expect(report.added).toBe(report.chunks);
    expect(results).toHaveLength(3);
    // Random weights carry no meaning; the lexical half of the fusion still finds the section.
    expect(results[0]!.heading).toBe("net.listen(port)");
  });
});
