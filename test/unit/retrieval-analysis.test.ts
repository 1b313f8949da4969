/** The building blocks of local retrieval: analysis, hashed vectors, BM25F, fusion, quantization. */
import { describe, expect, test } from "bun:test";
import { Effect } from "effect";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import { nearest, quantizeRows, rowVector } from "../../adapters/retrieval-local/vectors.ts";
import { buildBm25 } from "../../adapters/shared/ranking/bm25.ts";
import { reciprocalRankFusion } from "../../adapters/shared/ranking/fusion.ts";
import { chunkFields } from "../../adapters/shared/ranking/lexical.ts";
import { rerankWithLexical } from "../../adapters/shared/ranking/rerank.ts";
import { terms } from "../../adapters/shared/text-analysis/analyze.ts";
import { stem } from "../../adapters/shared/text-analysis/stem.ts";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe("analysis", () => {
  test("identifiers are kept whole and split at dots and camelCase humps", () => {
    expect(terms("fsPromises.writeFile")).toEqual([
      "fspromises.writefile",
      "fspromises",
      "fs",
      "promis",
      "writefile",
      "write",
      "file",
    ]);
    expect(terms("use crypto.createHmac()")).toEqual([
      "us",
      "crypto.createhmac",
      "crypto",
      "createhmac",
      "creat",
      "hmac",
    ]);
  });

  test("stop words go, words are stemmed, acronyms are not", () => {
    expect(terms("How do I list the entries of a directory?")).toEqual(["list", "entri", "directori"]);
    expect(terms("HTTPS is not HTTP")).toEqual(["https", "http"]);
    expect(terms("")).toEqual([]);
  });

  test("the Porter stemmer conflates inflections", () => {
    expect(["write", "writes", "writing"].map(stem)).toEqual(["write", "write", "write"]);
    expect(["connection", "connections", "connected", "connecting"].map(stem)).toEqual(
      Array(4).fill("connect"),
    );
    expect(["relational", "happiness", "generalization"].map(stem)).toEqual(["relat", "happi", "gener"]);
  });
});

describe("hashed embedder", () => {
  const embedder = HashEmbedder.make();
  const embed = (texts: ReadonlyArray<string>) => Effect.runSync(embedder.embed(texts));

  test("gives unit vectors of the stated size, the same every time", () => {
    const [a, b] = embed(["Reads the whole file", "Reads the whole file"]);
    expect(a!.length).toBe(embedder.dimensions);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect([...a!]).toEqual([...b!]);
  });

  test("texts sharing words are closer than unrelated texts", () => {
    const [question, related, unrelated] = embed([
      "How do I compute an HMAC of a message?",
      "crypto.createHmac(algorithm, key) creates an Hmac object for the message",
      "Starts a TCP server that accepts connections",
    ]);
    expect(dot(question!, related!)).toBeGreaterThan(dot(question!, unrelated!) + 0.1);
  });

  test("a text without any terms embeds to zeros, not NaN", () => {
    const [empty] = embed(["the of and ?!"]);
    expect([...empty!].every((x) => x === 0)).toBe(true);
  });
});

describe("BM25F", () => {
  const fields = (heading: string, text: string) => ({ heading, parents: "", title: "Doc", text });
  const index = buildBm25(
    [
      fields("files.readText", "Reads the whole file and resolves with its text."),
      fields("net.listen", "Starts a TCP server on a port."),
      fields("Overview", "This module reads files and writes files. Files files files."),
    ],
    {
      weights: { heading: 2, parents: 1, title: 1, text: 1 },
      b: { heading: 0.5, parents: 0.5, title: 0, text: 0.75 },
      k1: 1.2,
    },
  );

  test("ranks heading matches first and leaves unmatched records out", () => {
    expect(index.search("readText", 10)[0]).toBe(0);
    expect(index.search("tcp server", 10)).toEqual([1]);
    expect(index.search("read file", 10)[0]).toBe(0);
    expect(index.search("nothing matches zebra", 10)).toEqual([]);
    expect(index.search("file", 1)).toHaveLength(1);
  });

  test("a chunk's own heading is split from the signature's parameters", () => {
    const chunk = {
      id: "x",
      text: "t",
      title: "Assert",
      source: "a.md",
      url: "",
      heading: "Assert > Legacy > assert.ok(value[, message])",
    };
    expect(chunkFields(chunk)).toEqual({
      heading: "assert.ok",
      parents: "Legacy (value[, message])",
      title: "Assert",
      text: "t",
    });
  });
});

describe("fusion and vectors", () => {
  test("reciprocal rank fusion rewards agreement and respects weights", () => {
    const fused = reciprocalRankFusion([
      { ranked: [1, 2, 3], weight: 1 },
      { ranked: [3, 1], weight: 1 },
    ]);
    expect(fused.map(([position]) => position)).toEqual([1, 3, 2]);
    expect(fused[0]![1]).toBeCloseTo(1 / 61 + 1 / 62, 10);
    const vectorOnly = reciprocalRankFusion([
      { ranked: [1, 2], weight: 0 },
      { ranked: [2, 1], weight: 1 },
    ]);
    expect(vectorOnly.map(([position]) => position)).toEqual([2, 1]);
  });

  test("int8 quantization keeps vectors and their ranking", () => {
    const embedder = HashEmbedder.make(256);
    const rows = Effect.runSync(embedder.embed(["read a file", "write a file", "open a socket", ""]));
    const quantized = quantizeRows(rows, 256);
    rows.forEach((row, r) => {
      const back = rowVector(quantized, r);
      for (let d = 0; d < 256; d++) expect(Math.abs(back[d]! - row[d]!)).toBeLessThan(0.01);
    });
    const [query] = Effect.runSync(embedder.embed(["read file"]));
    const exact = rows.map((row, r) => [r, dot(row, query!)] as const).filter(([, s]) => s > 0);
    exact.sort((a, b) => b[1] - a[1]);
    expect(nearest(quantized, query!, 10).map(([r]) => r)).toEqual(exact.map(([r]) => r));
  });
});

describe("lexical re-ranking of vector candidates", () => {
  const chunk = (id: string, heading: string, text: string) => ({
    id,
    heading,
    text,
    title: "Crypto",
    source: "c.md",
    url: "",
  });
  const candidates = [
    chunk("a", "Crypto > Event: 'message'", "Emitted for every message. The message is passed on."),
    chunk("b", "Crypto > Event: 'error'", "Emitted when the message cannot be parsed."),
    chunk(
      "c",
      "Crypto > crypto.createHmac(algorithm, key)",
      "Creates an Hmac object to compute an HMAC digest.",
    ),
  ];

  test("a candidate that matches the question's words rises above ones that do not", () => {
    const ranked = rerankWithLexical("How do I compute an HMAC?", candidates, 2);
    expect(ranked.map(([c]) => c.id)).toEqual(["c", "a"]);
    expect(ranked[0]![1]).toBeGreaterThan(ranked[1]![1]);
  });

  test("without any lexical match the vector order stands; k bounds the list", () => {
    expect(rerankWithLexical("zebra", candidates, 5).map(([c]) => c.id)).toEqual(["a", "b", "c"]);
    expect(rerankWithLexical("hmac", candidates, 0)).toEqual([]);
    expect(rerankWithLexical("hmac", [], 5)).toEqual([]);
  });
});
