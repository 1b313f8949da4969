/**
 * `npm run ingest -- <files or folders> [--source NAME] [--base-url URL] [--rebuild]`, or
 * `npm run ingest -- <url>`: chunks the docs (files, or the pages of a site) into the named
 * collection, embeds new and changed chunks, removes gone ones, and prints what changed. With
 * `--site <id>` it writes the index of that site of SITES_FILE (its docs when no input is
 * given). Exit 0 on success, 1 when ingestion fails, 2 on bad usage or configuration.
 */
import * as Effect from "effect/Effect";
import * as Result from "effect/Result";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import { describeIndex, indexLayer, withSettings } from "../runtime/adapter-layers.ts";
import { commandLine } from "./command-line.ts";
import { ingestUrl } from "./ingest-url.ts";
import { siteOf } from "./site-option.ts";

const USAGE = `Usage: npm run ingest -- <file or folder>... [--source NAME] [--base-url URL] [--rebuild]
       npm run ingest -- <url> [--source NAME] [--max-pages N] [--concurrency N] [--delay MS]
                              [--allow-private] [--rebuild]
       npm run ingest -- --site ID [<url> | <file or folder>...] [options above]

Splits Markdown (.md, .markdown), HTML (.html, .htm) and text (.txt) files, also gzipped
(.md.gz, .html.gz), into chunks, embeds them and writes them to the configured index as
the collection NAME. Re-runs embed only new or changed chunks and remove the chunks of
files and sections that are gone: the collection mirrors the inputs of its latest run,
other collections stay as they are (the demo README is replaced by any other). Sources are
paths relative to the deepest folder holding all inputs. A running service picks up the
new index by itself within seconds.

A URL is a docs site (https://docs.example.com/guide/), a sitemap (.../sitemap.xml) or an
llms.txt / llms-full.txt. Pages are found through robots.txt's Sitemap lines, /sitemap.xml
and sitemap indexes, else by following links under the URL's path; robots.txt is obeyed,
only the URL's origin is fetched. A re-run downloads only what changed (ETag, Last-Modified,
the sitemap's lastmod) and removes pages that are gone. Each chunk cites its page URL with
the heading's anchor.

Options:
  --source NAME   the collection these docs replace (default: the inputs' folder name, or
                  the site's host name)
  --base-url URL  public URL of the docs root: a chunk of guide/setup.md links to
                  URL/guide/setup.html#<heading anchor>
  --rebuild       empty the whole index (every collection) first and embed everything again
  --site ID       write the index of site ID of SITES_FILE instead of the default site's
                  (<folder of INDEX_PATH>/sites/ID/index.bin, or the Chroma collection
                  <VECTOR_INDEX_NAME>-site-ID); without inputs, the site's own docs
                  (a folder with the site's baseUrl, unless --base-url is given)
  --max-pages N   take at most N pages of a site (default DOCS_MAX_PAGES, 5000)
  --concurrency N requests in flight at once (default DOCS_CONCURRENCY, 4)
  --delay MS      pause of each request slot after each request (default DOCS_DELAY_MS, 250)
  --allow-private fetch from private or loopback addresses (default DOCS_ALLOW_PRIVATE, off)
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
  "max-pages": { type: "string" },
  concurrency: { type: "string" },
  delay: { type: "string" },
  "allow-private": { type: "boolean", default: false },
  site: { type: "string" },
});
// A hosted site's index and settings, and its own docs when no input is named.
const hosted = values.site === undefined ? undefined : siteOf(readConfig(), values.site, fail);
const siteDocs = hosted?.site.docs;
const inputs =
  positionals.length > 0 || siteDocs === undefined
    ? positionals
    : [siteDocs.kind === "url" ? siteDocs.url : siteDocs.path];
const configOf = () => hosted?.config ?? readConfig();
if (inputs.length === 0) fail("give at least one file or folder, or one URL", 2);
if (inputs.some((input) => /^https?:\/\//i.test(input))) {
  if (inputs.length > 1) fail("give one URL at a time (a site, a sitemap or an llms.txt)", 2);
  await ingestUrl(inputs[0]!, values, configOf(), fail);
  process.exit(process.exitCode ?? 0);
}
// A site's own folder links as the service indexes it: to the site's baseUrl.
const siteBaseUrl = positionals.length === 0 && siteDocs?.kind === "folder" ? siteDocs.baseUrl : undefined;
const baseUrl = values["base-url"] ?? siteBaseUrl ?? "";
if (baseUrl !== "" && !/^https?:\/\//.test(baseUrl))
  fail(`--base-url must be an http(s) URL (got "${baseUrl}")`, 2);
const config = configOf();

const started = performance.now();
const program = ingest(inputs, { baseUrl, collection: values.source, onProgress: progressBar() }).pipe(
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
