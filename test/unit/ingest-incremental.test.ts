/** Incremental ingest into the local index: only changed chunks are embedded and written. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Result from "effect/Result";
import { ingest, planChanges } from "../../adapters/docs-ingest/ingest-collection.ts";
import * as HashEmbedder from "../../adapters/embed-hash/hash-embedder.ts";
import { readIndexFile } from "../../adapters/retrieval-local/index-file.ts";
import * as LocalIndex from "../../adapters/retrieval-local/local-index.ts";
import { Embedder } from "../../core/ports/retrieval.ts";

let work: string;
let docs: string;
let indexPath: string;
/** Every text the embedder was asked to embed, across runs. */
let embedded: string[];

const countingEmbedder = (name = "hash-v1-1024") => {
  const inner = HashEmbedder.make();
  return Layer.succeed(Embedder, {
    ...inner,
    name,
    embed: (texts) => {
      embedded.push(...texts);
      return inner.embed(texts);
    },
  });
};

const run = (
  options: {
    rebuild?: boolean;
    embedderName?: string;
    inputs?: ReadonlyArray<string>;
    collection?: string;
  } = {},
) =>
  Effect.runPromise(
    Effect.result(
      ingest(options.inputs ?? [docs], {
        baseUrl: "https://docs.example.com",
        collection: options.collection,
      }).pipe(
        Effect.provide(
          Layer.provideMerge(
            LocalIndex.layer({ indexPath, rebuild: options.rebuild }),
            countingEmbedder(options.embedderName),
          ),
        ),
      ),
    ),
  ).then((result) => {
    if (Result.isFailure(result)) throw new Error(result.failure.message);
    return result.success;
  });

const storedChunks = async () => {
  const data = await Effect.runPromise(readIndexFile(indexPath));
  return data === undefined ? [] : Array.from({ length: data.count }, (_, i) => data.chunk(i));
};

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "ingest-test-"));
  docs = join(work, "docs");
  cpSync("test/fixtures/docs/site", docs, { recursive: true });
  indexPath = join(work, "data", "index.bin");
  embedded = [];
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("incremental ingest", () => {
  test("a first run adds every chunk of every supported file", async () => {
    const report = await run();
    expect(report.files).toBe(5);
    expect(report).toMatchObject({ added: report.chunks, updated: 0, removed: 0, unchanged: 0 });
    const chunks = await storedChunks();
    expect(chunks).toHaveLength(report.chunks);
    expect(new Set(chunks.map((c) => c.source))).toEqual(
      new Set(["api/files.md", "api/network.md", "faq.html", "guide/install.md", "notes.txt"]),
    );
    expect(embedded).toHaveLength(report.chunks);
  });

  test("a second run with nothing changed embeds nothing", async () => {
    const first = await run();
    embedded = [];
    const second = await run();
    expect(second).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: first.chunks });
    expect(embedded).toEqual([]);
  });

  test("changing one section of one file updates only that chunk", async () => {
    await run();
    const before = await storedChunks();
    const path = join(docs, "api/network.md");
    writeFileSync(path, readFileSync(path, "utf8").replace("remote server.", "remote server over TLS."));
    embedded = [];
    const report = await run();
    expect(report).toMatchObject({ added: 0, updated: 1, removed: 0, unchanged: before.length - 1 });
    expect(embedded).toHaveLength(1);
    expect(embedded[0]).toContain("remote server over TLS.");
    const after = await storedChunks();
    const changed = after.filter((c) => before.find((b) => b.id === c.id)?.hash !== c.hash);
    expect(changed.map((c) => c.heading)).toEqual(["net.connect(host, port)"]);
  });

  test("adding a section adds its chunk; removing one removes it", async () => {
    await run();
    const path = join(docs, "api/network.md");
    const original = readFileSync(path, "utf8");
    writeFileSync(path, `${original}\n## \`net.ping(host)\`\n\nSends an echo request.\n`);
    expect(await run()).toMatchObject({ added: 1, updated: 0, removed: 0 });
    writeFileSync(path, original.replace(/## Event: `'close'`\n\nEmitted[^\n]*\n/, ""));
    const report = await run();
    expect(report).toMatchObject({ added: 0, removed: 2 });
    const headings = (await storedChunks()).map((c) => c.heading);
    expect(headings).not.toContain("net.ping(host)");
    expect(headings).not.toContain("Event: 'close'");
  });

  test("deleting a file removes all of its chunks and nothing else", async () => {
    const first = await run();
    const filesChunks = (await storedChunks()).filter((c) => c.source === "api/files.md").length;
    unlinkSync(join(docs, "api/files.md"));
    embedded = [];
    const report = await run();
    expect(report).toMatchObject({ files: 4, added: 0, updated: 0, removed: filesChunks });
    expect(report.unchanged).toBe(first.chunks - filesChunks);
    expect((await storedChunks()).some((c) => c.source === "api/files.md")).toBe(false);
    expect(embedded).toEqual([]);
  });

  test("another embedder, or --rebuild, embeds everything again", async () => {
    const first = await run();
    embedded = [];
    const other = await run({ embedderName: "other-model" });
    expect(other.added).toBe(first.chunks);
    expect(embedded).toHaveLength(first.chunks);
    embedded = [];
    const rebuilt = await run({ rebuild: true, embedderName: "other-model" });
    expect(rebuilt.added).toBe(first.chunks);
    expect((await Effect.runPromise(readIndexFile(indexPath)))?.embedder).toBe("other-model");
  });

  test("bad inputs fail with a clear message and leave the index alone", async () => {
    await run();
    const before = readFileSync(indexPath);
    await expect(run({ inputs: [join(work, "missing")] })).rejects.toThrow(/no such file or folder/);
    const empty = join(work, "empty");
    cpSync(join(docs, "api"), empty, { recursive: true, filter: (src) => !src.endsWith(".md") });
    await expect(run({ inputs: [empty] })).rejects.toThrow(/no \.md, .* files \(or \.gz of them\) in/);
    writeFileSync(join(work, "image.png"), "x");
    await expect(run({ inputs: [join(work, "image.png")] })).rejects.toThrow(/unsupported file type/);
    writeFileSync(join(docs, "api/files.md.gz"), gzipSync(readFileSync(join(docs, "api/files.md"))));
    await expect(run()).rejects.toThrow(/both give the source "api\/files.md"/);
    await expect(run({ collection: "bad name!" })).rejects.toThrow(/collection name "bad name!"/);
    expect(readFileSync(indexPath).equals(before)).toBe(true);
  });
});

describe("collections and sources", () => {
  const folder = (name: string, files: Readonly<Record<string, string>>) => {
    for (const [path, text] of Object.entries(files)) {
      const full = join(work, name, path);
      cpSync(join(docs, "notes.txt"), full);
      writeFileSync(full, text);
    }
    return join(work, name);
  };
  const collections = async () => (await storedChunks()).map((c) => `${c.collection}:${c.source}`).sort();

  test("a second folder is added beside the first; re-ingesting one replaces only it", async () => {
    const guides = folder("guides", { "index.md": "# Guides\n\nStart here.\n" });
    const api = folder("api", { "index.md": "# API\n\nCall things.\n" });
    await run({ inputs: [guides] });
    const second = await run({ inputs: [api] });
    expect(second.collection).toBe("api");
    expect(second.collections).toEqual([
      { name: "api", chunks: 1 },
      { name: "guides", chunks: 1 },
    ]);
    expect(await collections()).toEqual(["api:index.md", "guides:index.md"]);
    writeFileSync(join(api, "index.md"), "# API\n\nCall other things.\n");
    writeFileSync(join(api, "more.md"), "# More\n\nMore things.\n");
    expect(await run({ inputs: [api] })).toMatchObject({ added: 1, updated: 1, removed: 0 });
    expect(await collections()).toEqual(["api:index.md", "api:more.md", "guides:index.md"]);
    expect(await run({ inputs: [guides], rebuild: true })).toMatchObject({
      collections: [{ name: "guides", chunks: 1 }],
    });
  });

  test("--source names the collection; the demo collection is replaced by any real one", async () => {
    const a = folder("a", { "x.md": "# X\n\nOne.\n" });
    await run({ inputs: [a], collection: "demo" });
    await run({ inputs: [a], collection: "product" });
    expect(await collections()).toEqual(["product:x.md"]);
  });

  test("same-named files in different folders of one run stay apart", async () => {
    const root = folder("versions", {
      "v1/index.md": "# V1\n\nOld.\n",
      "v2/index.md": "# V2\n\nNew.\n",
    });
    const report = await run({ inputs: [join(root, "v1"), join(root, "v2")], collection: "versions" });
    expect(report.files).toBe(2);
    expect(await collections()).toEqual(["versions:v1/index.md", "versions:v2/index.md"]);
    const ids = (await storedChunks()).map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("gzipped pages are read as their inner type; a page's HTML rendering beside its Markdown is skipped", async () => {
    const root = folder("site", {
      "guide.html": "<h1>Guide</h1><p>Rendered copy.</p>",
      "other.html": "<h1>Other</h1><p>Only HTML.</p>",
    });
    writeFileSync(join(root, "guide.md.gz"), gzipSync("# Guide\n\nThe **source** text.\n"));
    writeFileSync(join(root, "api.html.gz"), gzipSync("<h1>API</h1><p>Zipped page.</p>"));
    await run({ inputs: [root] });
    const chunks = await storedChunks();
    expect(chunks.map((c) => c.source).sort()).toEqual(["api.html", "guide.md", "other.html"]);
    expect(chunks.find((c) => c.source === "guide.md")?.text).toBe("The source text.");
    expect(chunks.find((c) => c.source === "api.html")?.text).toBe("Zipped page.");
    expect(chunks.find((c) => c.source === "guide.md")?.url).toBe("https://docs.example.com/guide.html");
  });
});

describe("planChanges", () => {
  const chunk = (id: string) => ({ id, text: id, title: "", heading: "", source: "s", url: "" });
  test("splits wanted chunks into added, updated, unchanged, and the rest into removed", () => {
    const existing = new Map([
      ["same", "h1"],
      ["changed", "h2"],
      ["gone", "h3"],
    ]);
    const plan = planChanges("docs", existing, [
      { chunk: chunk("same"), hash: "h1" },
      { chunk: chunk("changed"), hash: "h2b" },
      { chunk: chunk("new"), hash: "h4" },
    ]);
    expect(plan.write.map((w) => w.chunk.id)).toEqual(["changed", "new"]);
    expect(plan).toMatchObject({ added: 1, updated: 1, unchanged: 1, remove: ["gone"] });
  });
});
