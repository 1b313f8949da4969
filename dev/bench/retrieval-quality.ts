/**
 * Retrieval quality on the Node.js API docs: recall@5 by file (a top-5 chunk comes from the
 * expected file) and by phrase (a top-5 chunk's text contains the expected phrase), for the
 * embedded local index and for a real Chroma server, plus ingest time, index load time and
 * memory. The docs come from Debian's nodejs-doc package, fetched with `apt-get download`
 * and unpacked with `dpkg -x` (never installed: that would remove Node).
 *
 *   bun dev/bench/retrieval-quality.ts [--docs DIR] [--questions FILE]... [--no-chroma] [--model ID|PATH]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { ChromaIndex, ChromaRetriever } from "../../adapters/retrieval-chroma/index.ts";
import { LocalIndex, LocalRetriever } from "../../adapters/retrieval-local/index.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { embedderLayer as configuredEmbedder, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { startLocalChroma } from "../../test/support/chroma-server.ts";
import { type EvalQuestion as Question, readQuestions } from "../eval/questions.ts";
import { DEFAULT_NODE_DOCS_DIR, ensureNodeDocs } from "./node-docs.ts";
import { type Figure, record } from "./report.ts";

const { values } = parseArgs({
  options: {
    docs: { type: "string", default: DEFAULT_NODE_DOCS_DIR },
    questions: { type: "string", multiple: true },
    "no-chroma": { type: "boolean", default: false },
    model: { type: "string" },
    "eval-local": { type: "string" },
  },
});
const fixtures = fileURLToPath(new URL("../../test/fixtures/docs/", import.meta.url));
const questionFiles = values.questions ?? [
  join(fixtures, "node-docs-dev.tsv"),
  join(fixtures, "node-docs-extra.tsv"),
];
const embedderLayer = withSettings(defaultConfig({ embeddingModel: values.model }), configuredEmbedder);

/** recall@5 by file and by phrase over one question set, with the misses. */
const evaluate = (questions: ReadonlyArray<Question>) =>
  Effect.gen(function* () {
    const retriever = yield* Retriever;
    let byFile = 0;
    let byPhrase = 0;
    const misses: string[] = [];
    for (const q of questions) {
      const top = (yield* retriever.retrieve(q.question, 5)).chunks;
      const fileHit = top.some((chunk) => chunk.source === q.file);
      const phraseHit = top.some((chunk) => chunk.text.includes(q.phrase));
      byFile += fileHit ? 1 : 0;
      byPhrase += phraseHit ? 1 : 0;
      if (!fileHit || !phraseHit)
        misses.push(
          `${fileHit ? "F" : "-"}${phraseHit ? "P" : "-"} ${q.question} -> ${top.map((c) => c.source).join(" ")}`,
        );
    }
    return {
      questions: questions.length,
      fileRecall: byFile / questions.length,
      phraseRecall: byPhrase / questions.length,
      misses,
    };
  });

const evaluateAll = Effect.forEach(questionFiles, (path) =>
  Effect.map(evaluate(readQuestions(path)), (result) => ({ set: basename(path), ...result })),
);

const mb = (bytes: number) => Math.round(bytes / 1e6);
const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2));

// Child mode: load the local index in a fresh process, so load time and RSS are its own.
if (values["eval-local"] !== undefined) {
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const program = Effect.gen(function* () {
    yield* Retriever;
    const loadSeconds = seconds(started);
    const rss = process.memoryUsage().rss;
    Bun.gc(true);
    const heapMb = mb(process.memoryUsage().heapUsed);
    return { loadSeconds, rssMb: mb(rss), rssIncreaseMb: mb(rss - before), heapMb, sets: yield* evaluateAll };
  });
  const layer = Layer.provide(LocalRetriever.layer({ indexPath: values["eval-local"] }), embedderLayer);
  console.log(JSON.stringify(await Effect.runPromise(Effect.provide(program, layer))));
  process.exit(0);
}

const figures: Figure[] = [];
const report = (
  label: string,
  sets: ReadonlyArray<{
    set: string;
    questions: number;
    fileRecall: number;
    phraseRecall: number;
    misses: ReadonlyArray<string>;
  }>,
) => {
  for (const s of sets) {
    console.log(
      `${label} ${s.set} (${s.questions} questions): recall@5 file ${s.fileRecall.toFixed(2)}, phrase ${s.phraseRecall.toFixed(2)}`,
    );
    for (const miss of s.misses) console.log(`    ${miss}`);
    const isGoal = label === "local" && s.set.startsWith("node-docs-dev");
    figures.push({
      measure: `${label} index, ${s.set} (${s.questions} questions): recall@5 file / phrase`,
      value: `${s.fileRecall.toFixed(2)} / ${s.phraseRecall.toFixed(2)}`,
      ...(label === "chroma" ? { baseline: "the local index above" } : {}),
      ...(isGoal ? { goal: "file >= 0.90", met: s.fileRecall >= 0.9 } : {}),
    });
  }
};

ensureNodeDocs(values.docs);
const work = mkdtempSync(join(tmpdir(), "retrieval-bench-"));
const indexPath = join(work, "index.bin");
/** Ingests the docs into the local index at `indexPath` (unchanged files are skipped). */
const ingestLocal = () =>
  Effect.runPromise(
    ingest([values.docs]).pipe(
      Effect.provide(Layer.provideMerge(LocalIndex.layer({ indexPath }), embedderLayer)),
    ),
  );
let started = performance.now();
const first = await ingestLocal();
const ingestSeconds = seconds(started);
started = performance.now();
await ingestLocal();
const reingestSeconds = seconds(started);
console.log(
  `local: ${first.files} files, ${first.chunks} chunks; ingest ${ingestSeconds} s, unchanged re-ingest ${reingestSeconds} s, index file ${mb(Bun.file(indexPath).size)} MB`,
);
const child = spawnSync(
  process.execPath,
  [
    process.argv[1]!,
    "--eval-local",
    indexPath,
    ...questionFiles.flatMap((f) => ["--questions", f]),
    ...(values.model ? ["--model", values.model] : []),
  ],
  { encoding: "utf8" },
);
if (child.status !== 0) throw new Error(`local evaluation failed: ${child.stderr}`);
const local = JSON.parse(child.stdout);
console.log(
  `local: index load ${local.loadSeconds} s, RSS ${local.rssMb} MB (+${local.rssIncreaseMb} MB while loading), JS heap ${local.heapMb} MB after GC`,
);
report("local", local.sets);

if (!values["no-chroma"]) {
  const chroma = await startLocalChroma();
  try {
    const options = { url: chroma.url, apiKey: undefined, collection: "node-docs-bench" };
    started = performance.now();
    await Effect.runPromise(
      ingest([values.docs]).pipe(
        Effect.provide(Layer.provideMerge(ChromaIndex.layer(options), embedderLayer)),
      ),
    );
    console.log(`chroma: ingest ${seconds(started)} s into ${chroma.url}`);
    const sets = await Effect.runPromise(
      Effect.provide(evaluateAll, Layer.provide(ChromaRetriever.layer(options), embedderLayer)),
    );
    report("chroma", sets);
  } finally {
    await chroma.stop();
  }
}
record("retrieval", {
  title: "Retrieval quality",
  method:
    "recall@5 on the Node.js API docs: the dev questions of ../shared/eval and 70 more written to check the method was not tuned to them; local index (BM25 + hashed vectors, reciprocal rank fusion) and a real Chroma server (hashed vectors, client re-ranking).",
  figures: [
    ...figures,
    { measure: "local ingest / unchanged re-ingest", value: `${ingestSeconds} s / ${reingestSeconds} s` },
  ],
});
rmSync(work, { recursive: true, force: true });
