/**
 * Measures @mozilla/readability (on a linkedom DOM) against our main-content extraction
 * (adapters/docs-ingest/html-main.ts), as the candidate for pages whose generator we do not
 * know: on the HTML fixtures (Sphinx, MkDocs Material, Docusaurus, VitePress, DocBook, plain)
 * and a sample of the PostgreSQL pages. Per page: the share of our extracted words readability
 * also keeps (content kept), the share of its words we dropped as furniture (furniture let in),
 * the sections with anchors left to cite, and the time.
 *
 *   bun dev/bench/readability-measure.ts [--sample N]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { parseHtml } from "../../adapters/docs-ingest/html.ts";
import type { ParsedDocument } from "../../adapters/docs-ingest/parsed.ts";
import { ensurePostgresDocs } from "./postgres-docs.ts";

const { values } = parseArgs({ options: { sample: { type: "string", default: "100" } } });
const fixtures = join(import.meta.dir, "../../test/fixtures/html");
const textOf = (doc: ParsedDocument) =>
  [doc.title, ...doc.sections.flatMap((s) => [...s.headings, ...s.blocks.map((b) => b.text)])].join(" ");
const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []);
const share = (part: Set<string>, of: Set<string>) =>
  of.size === 0 ? 1 : [...of].filter((w) => part.has(w)).length / of.size;
const anchored = (doc: ParsedDocument) => doc.sections.filter((s) => s.anchor !== "").length;

interface Row {
  readonly page: string;
  readonly kept: number;
  readonly furniture: number;
  readonly oursAnchors: number;
  readonly theirAnchors: number;
  readonly oursMs: number;
  readonly theirMs: number;
}

const measure = (page: string, html: string): Row => {
  let started = performance.now();
  const ours = parseHtml(html, page);
  const oursMs = performance.now() - started;
  started = performance.now();
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  const theirs = parseHtml(`<main>${article?.content ?? ""}</main>`, page);
  const theirMs = performance.now() - started;
  const [ourWords, theirWords] = [words(textOf(ours)), words(textOf(theirs))];
  return {
    page,
    kept: share(theirWords, ourWords),
    furniture: 1 - share(ourWords, theirWords),
    oursAnchors: anchored(ours),
    theirAnchors: anchored(theirs),
    oursMs,
    theirMs,
  };
};

const rows: Row[] = readdirSync(fixtures).map((name) =>
  measure(name, readFileSync(join(fixtures, name), "utf8")),
);
const docs = ensurePostgresDocs();
const pages = readdirSync(docs)
  .filter((name) => name.endsWith(".html"))
  .sort();
const step = Math.max(1, Math.floor(pages.length / Number(values.sample)));
const sample = pages.filter((_, i) => i % step === 0).slice(0, Number(values.sample));
const pg = sample.map((name) => measure(`postgres/${name}`, readFileSync(join(docs, name), "utf8")));

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
console.log("| page | content kept | furniture let in | anchored sections (ours / readability) |");
console.log("|---|---|---|---|");
for (const row of rows)
  console.log(
    `| ${row.page} | ${pct(row.kept)} | ${pct(row.furniture)} | ${row.oursAnchors} / ${row.theirAnchors} |`,
  );
const mean = (pick: (row: Row) => number) => pg.reduce((sum, row) => sum + pick(row), 0) / pg.length;
console.log(
  `| PostgreSQL, ${pg.length} pages (mean) | ${pct(mean((r) => r.kept))} | ${pct(mean((r) => r.furniture))} | ${mean((r) => r.oursAnchors).toFixed(1)} / ${mean((r) => r.theirAnchors).toFixed(1)} |`,
);
console.log(
  `time per PostgreSQL page: ours ${mean((r) => r.oursMs).toFixed(2)} ms, readability + linkedom ${mean((r) => r.theirMs).toFixed(2)} ms`,
);
console.log(
  `PostgreSQL pages where readability kept under 90% of our words: ${pg.filter((r) => r.kept < 0.9).length}`,
);
