/** The building blocks of local retrieval: analysis, hashed vectors, BM25F, fusion, quantization. */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import { nearest, quantizeRows, rowVector } from "../../adapters/retrieval-local/vectors.ts";
import { bm25Searcher, buildBm25Tables } from "../../adapters/shared/ranking/bm25.ts";
import { reciprocalRankFusion } from "../../adapters/shared/ranking/fusion.ts";
import {
  HYBRID,
  hybridSearch,
  questionTerms,
  relevanceEvidence,
} from "../../adapters/shared/ranking/hybrid.ts";
import { buildLexicalTables, chunkFields, codeOf } from "../../adapters/shared/ranking/lexical.ts";
import { analysisFor, terms } from "../../adapters/shared/text-analysis/analyze.ts";
import { stem } from "../../adapters/shared/text-analysis/stem.ts";
import { measureRelevance } from "../../core/answers/relevance.ts";

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

  test("a plural acronym is its acronym, not a camelCase name", () => {
    expect(terms("Parsing URLs and APIs")).toEqual(["pars", "url", "api"]);
    expect(terms("swap the AAs")).toEqual(["swap", "aa"]);
    expect(analysisFor("de").terms("Die URLs der APIs")).toEqual(["url", "api"]);
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
  const fields = (heading: string, text: string) => ({
    heading,
    parents: "",
    title: "Doc",
    code: codeOf(text),
    text,
  });
  const tables = buildBm25Tables(
    [
      fields("files.readText", "Reads the whole file and resolves with its text."),
      fields("net.listen", "Starts a TCP server on a port."),
      fields("Overview", "This module reads files and writes files. Files files files."),
    ],
    {
      weights: { heading: 2, parents: 1, title: 1, code: 1, text: 1 },
      b: { heading: 0.5, parents: 0.5, title: 0, code: 0.5, text: 0.75 },
      k1: 1.2,
    },
  );
  const index = bm25Searcher(tables);
  const search = (question: string, limit: number) =>
    index.search(questionTerms(question), limit).map(([r]) => r);

  test("ranks heading matches first and leaves unmatched records out", () => {
    expect(search("readText", 10)[0]).toBe(0);
    expect(search("tcp server", 10)).toEqual([1]);
    expect(search("read file", 10)[0]).toBe(0);
    expect(search("nothing matches zebra", 10)).toEqual([]);
    expect(search("file", 1)).toHaveLength(1);
  });

  test("postings answer membership and document frequency; unknown terms weigh most", () => {
    expect(index.has("tcp", 1)).toBe(true);
    expect(index.has("tcp", 0)).toBe(false);
    expect(index.has("zebra", 0)).toBe(false);
    expect(index.documentFrequency("file")).toBe(2);
    expect(index.idf("zebra")).toBeGreaterThan(index.idf("tcp"));
    expect(index.idf("tcp")).toBeGreaterThan(index.idf("file"));
  });

  test("a chunk's own heading is split from the signature's parameters; code gets a field", () => {
    const chunk = {
      title: "Assert",
      heading: "Legacy > assert.ok(value[, message])",
      text: "Use `assert.ok(x)`.\n\n```js\nassert.strictEqual(a, b);\nrun();\n```",
    };
    expect(chunkFields(chunk)).toEqual({
      heading: "assert.ok",
      parents: "Legacy (value[, message])",
      title: "Assert",
      code: "assert.ok(x) assert.strictEqual run",
      text: chunk.text,
    });
  });

  test("identifier-aware terms: dotted names, options, snake_case, camelCase, SQL keyword pairs", () => {
    expect(questionTerms("asyncio.gather")).toEqual(["asyncio.gather", "asyncio", "gather"]);
    expect(questionTerms("--base-url")).toEqual(["--base-url", "base", "url"]);
    expect(questionTerms("max_slot_wal_keep_size")).toContain("max_slot_wal_keep_size");
    expect(questionTerms("fs.promises.readFile")).toEqual(
      expect.arrayContaining(["fs.promises.readfile", "readfile", "read", "file"]),
    );
    expect(questionTerms("ON CONFLICT DO UPDATE")).toEqual(
      expect.arrayContaining(["on_conflict", "conflict_do", "do_update"]),
    );
    expect(questionTerms("on conflict")).not.toContain("on_conflict");
    expect(questionTerms("read-only")).toEqual(["read"]);
  });
});

describe("hybrid search and relevance evidence", () => {
  const chunks = [
    {
      title: "Crypto",
      heading: "Event: 'message'",
      text: "Emitted for every message. The message is passed on.",
      page: "a",
    },
    {
      title: "Crypto",
      heading: "Event: 'error'",
      text: "Emitted when the message cannot be parsed.",
      page: "a",
    },
    {
      title: "Crypto",
      heading: "crypto.createHmac(algorithm, key)",
      text: "Creates an Hmac object to compute an HMAC digest.",
      page: "b",
    },
    { title: "Net", heading: "net.listen(port)", text: "Starts a TCP server on a port.", page: "c" },
  ];
  const lexical = bm25Searcher(buildLexicalTables(chunks));
  const search = (question: string, byVector: number[] = [], tuning = HYBRID, limit = 5) =>
    hybridSearch(
      { lexical, words: questionTerms(question), byVector, pageOf: (r) => chunks[r]!.page, limit },
      tuning,
    ).map(([r]) => r);

  test("the chunk naming the question's rare word comes first; vector-only hits join", () => {
    expect(search("How do I compute an HMAC?")[0]).toBe(2);
    expect(search("How do I compute an HMAC?", [3])).toContain(3);
  });

  test("the lead page may give several chunks, other pages one each; too few pages fill up", () => {
    const tuning = { ...HYBRID, leadPerPage: 1, perPage: 1 };
    const three = search("message error hmac tcp server", [0, 1, 2, 3], tuning, 3);
    expect(three.filter((r) => chunks[r]!.page === "a")).toHaveLength(1);
    expect(new Set(three.map((r) => chunks[r]!.page)).size).toBe(3);
    expect(search("message error hmac tcp server", [0, 1, 2, 3], tuning, 5)).toHaveLength(4);
    const lead = search("message error", [0, 1], { ...HYBRID, leadPerPage: 2 }, 2);
    expect(lead.filter((r) => chunks[r]!.page === "a")).toHaveLength(2);
  });

  test("a tie in fused rank goes to the stronger BM25 match, wherever the chunks are stored", () => {
    const pair = [
      { title: "Locks", heading: "", text: "Rows are locked while they are updated.", page: "p" },
      { title: "Locks", heading: "", text: "Locked rows: a locked row is locked until commit.", page: "p" },
    ];
    // Lexical order [strong, weak] and vector order [weak, strong] give both the same rank sum.
    const order = (rows: typeof pair) => {
      const index = bm25Searcher(buildLexicalTables(rows));
      const words = questionTerms("locked rows");
      const strong = index.search(words, 2)[0]![0];
      const weak = 1 - strong;
      const ranked = hybridSearch(
        { lexical: index, words, byVector: [weak, strong], pageOf: () => "p", limit: 2 },
        { ...HYBRID, leadPerPage: 2 },
      );
      expect(ranked[0]![1]).toBe(ranked[1]![1]);
      return ranked.map(([r]) => rows[r]!.text);
    };
    expect(order(pair)).toEqual(order([pair[1]!, pair[0]!]));
    expect(order(pair)[0]).toBe(pair[1]!.text);
  });

  test("evidence: each term's passages in the docs and among the results, and the pairs found", () => {
    const evidence = (question: string, rows: number[]) =>
      relevanceEvidence(
        lexical,
        questionTerms(question),
        rows,
        question,
        rows.map((r) => chunks[r]!),
      );
    const covered = evidence("compute an HMAC digest", [2]);
    expect(covered).toMatchObject({ chunks: chunks.length, pairs: 2, pairsFound: 2 });
    expect(covered.words.map((word) => word.term)).toEqual(["comput", "hmac", "digest"]);
    for (const word of covered.words) {
      expect(word.documents).toBeGreaterThan(0);
      expect(word.inPassages).toEqual([0]);
    }
    expect(measureRelevance(covered)).toMatchObject({ terms: 3, coverage: 1, known: 1 });
    const partly = measureRelevance(evidence("HMAC of a zebra", [2]));
    expect(partly.coverage).toBeGreaterThan(0);
    expect(partly.coverage).toBeLessThan(1);
    expect(partly.known).toBe(partly.coverage);
    const weather = evidence("weather in paris", [0, 1, 2, 3]);
    expect(weather).toMatchObject({ pairs: 1, pairsFound: 0 });
    expect(weather.words).toEqual([
      { term: "weather", documents: 0, inPassages: [], common: true, code: false },
      { term: "pari", documents: 0, inPassages: [], common: true, code: false },
    ]);
    expect(measureRelevance(weather)).toMatchObject({ coverage: 0, known: 0 });
    expect(relevanceEvidence(lexical, [], [0], "", [])).toMatchObject({ words: [], pairs: 0, pairsFound: 0 });
  });

  test("evidence: adjacent word pairs count in either order, scattered words do not", () => {
    const pairs = (question: string) =>
      relevanceEvidence(lexical, questionTerms(question), [3], question, [chunks[3]!]);
    expect(pairs("TCP server").pairsFound).toBe(1);
    expect(pairs("server TCP").pairsFound).toBe(1);
    expect(pairs("port TCP").pairsFound).toBe(0);
    expect(measureRelevance(pairs("port TCP")).coverage).toBe(1);
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
