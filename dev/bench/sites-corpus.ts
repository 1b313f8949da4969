/**
 * The sites of the many-sites benchmarks: 50 small sites of a few hundred chunks and 5 large
 * ones, each a folder of Markdown from one corpus (the Node.js API docs, or this repository's
 * README and docs/ for a quick run). A small site takes consecutive files from its own starting
 * point up to about 360 KB (300 chunks of 300 tokens), a large site the whole corpus.
 */
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureNodeDocs } from "./node-docs.ts";

/** About 300 chunks of 300 tokens (some 1,200 characters each). */
export const SMALL_SITE_BYTES = 360_000;

export const SITE_QUESTIONS = [
  "How do I read a file line by line?",
  "How do I create an HTTP server?",
  "What does the event loop do with timers?",
  "How do I spawn a child process and read its output?",
  "How do I pay for more questions?",
  "Which settings does the service read?",
];

const root = join(import.meta.dir, "..", "..");

/** The corpus's Markdown files. */
export const corpusFiles = (corpus: string): ReadonlyArray<string> => {
  if (corpus === "project") {
    const docs = join(root, "docs");
    return [
      join(root, "README.md"),
      ...readdirSync(docs)
        .filter((name) => name.endsWith(".md"))
        .map((name) => join(docs, name)),
    ];
  }
  const dir = ensureNodeDocs();
  return readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(dir, name));
};

export interface BenchSite {
  readonly id: string;
  readonly large: boolean;
  readonly folder: string;
}

/** The sites' folders under `work/docs/<id>`, written now. */
export const siteFolders = (
  work: string,
  files: ReadonlyArray<string>,
  small: number,
  large: number,
): ReadonlyArray<BenchSite> => {
  const sites = [
    ...Array.from({ length: small }, (_, i) => ({ id: `small-${i}`, large: false })),
    ...Array.from({ length: large }, (_, i) => ({ id: `large-${i}`, large: true })),
  ];
  return sites.map((site, n) => {
    const folder = join(work, "docs", site.id);
    mkdirSync(folder, { recursive: true });
    let bytes = 0;
    for (let i = 0; i < files.length && (site.large || bytes < SMALL_SITE_BYTES); i++) {
      const file = files[(n + i) % files.length] as string;
      copyFileSync(file, join(folder, `${i}-${file.split("/").pop()}`));
      bytes += statSync(file).size;
    }
    return { ...site, folder };
  });
};
