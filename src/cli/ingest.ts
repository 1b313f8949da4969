/**
 * `npm run ingest -- <files or folders> [--source NAME] [--base-url URL] [--rebuild]`: chunks
 * the docs into the named collection, embeds new and changed chunks, removes gone ones, and
 * prints what changed. Exit 0 on success, 1 when ingestion fails, 2 on bad usage or configuration.
 */
import { Effect, Result } from "effect";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { describeIndex, indexLayer, withSettings } from "../runtime/adapter-layers.ts";
import { commandLine } from "./command-line.ts";

const USAGE = `Usage: npm run ingest -- <file or folder>... [--source NAME] [--base-url URL] [--rebuild]

Splits Markdown (.md, .markdown), HTML (.html, .htm) and text (.txt) files, also gzipped
(.md.gz, .html.gz), into chunks, embeds them and writes them to the configured index as
the collection NAME. Re-runs embed only new or changed chunks and remove the chunks of
files and sections that are gone: the collection mirrors the inputs of its latest run,
other collections stay as they are (the demo README is replaced by any other). Sources are
paths relative to the deepest folder holding all inputs. A running service picks up the
new index by itself within seconds.

Options:
  --source NAME   the collection these docs replace (default: the inputs' folder name)
  --base-url URL  public URL of the docs root: a chunk of guide/setup.md links to
                  URL/guide/setup.html#<heading anchor>
  --rebuild       empty the whole index (every collection) first and embed everything again
  -h, --help      show this text

Index (environment): INDEX_PATH (default .data/index.bin); or Chroma when CHROMA_URL or
VECTOR_API_KEY is set, collection VECTOR_INDEX_NAME. EMBEDDING_MODEL picks a
transformers model (e.g. Xenova/all-MiniLM-L6-v2); unset: hashed lexical vectors.`;

/** A one-line progress bar on stderr, only when a person is watching. */
const progressBar = () => {
  if (!process.stderr.isTTY) return undefined;
  return (done: number, total: number) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(
      `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} chunks embedded`,
    );
    if (done === total) process.stderr.write("\n");
  };
};

const {
  values,
  positionals,
  fail,
  config: readConfig,
} = commandLine("ingest", USAGE, {
  source: { type: "string" },
  "base-url": { type: "string" },
  rebuild: { type: "boolean", default: false },
});
if (positionals.length === 0) fail("give at least one file or folder", 2);
const baseUrl = values["base-url"] ?? "";
if (baseUrl !== "" && !/^https?:\/\//.test(baseUrl))
  fail(`--base-url must be an http(s) URL (got "${baseUrl}")`, 2);
const config = readConfig();

const started = performance.now();
const program = ingest(positionals, { baseUrl, collection: values.source, onProgress: progressBar() }).pipe(
  Effect.provide(withSettings(config, indexLayer({ rebuild: values.rebuild }))),
);
const outcome = await Effect.runPromise(Effect.result(program));
if (Result.isFailure(outcome)) fail(outcome.failure.message, 1);
const report = Result.getOrThrow(outcome);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `Ingested ${report.files} files as "${report.collection}" into ${describeIndex(config.vector)}: ${report.chunks} chunks ` +
    `(${report.added} added, ${report.updated} updated, ${report.removed} removed, ${report.unchanged} unchanged) in ${seconds} s`,
);
if (report.skipped.length > 0)
  console.log(`Left out, as they only repeat other pages: ${report.skipped.join(", ")}`);
console.log(
  `The index holds: ${report.collections.map((c) => `"${c.name}" (${c.chunks} chunks)`).join(", ")}`,
);
