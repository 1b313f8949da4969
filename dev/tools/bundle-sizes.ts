/**
 * The browser bundles' sizes in the docs, from the build itself: `bun dev/tools/bundle-sizes.ts`
 * builds them (src/bundles/build.ts, into a temporary folder) and prints the section that
 * docs/widget.md holds between its `bundle-sizes` markers; `--write` puts it there.
 * test/unit/bundle-sizes.test.ts builds and compares, so a change to the widget's code or its
 * libraries fails until the doc says what the build makes.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BundleSize, buildWidget, bundle, sizeOf } from "../../src/bundles/build.ts";

const ROOT = join(import.meta.dir, "..", "..");
export const SIZES_DOC = join(ROOT, "docs", "widget.md");
const BEGIN = "<!-- bundle-sizes: written by `bun dev/tools/bundle-sizes.ts --write` from the build -->";
const END = "<!-- /bundle-sizes -->";
/** The chat's budget: what every page that embeds the widget downloads, gzipped. */
export const WIDGET_GZIP_GOAL = 40 * 1024;

export interface Sizes {
  readonly bundles: ReadonlyArray<BundleSize>;
  /** marked's lexer bundled alone: the markdown parser's share of widget.js. */
  readonly lexer: BundleSize;
}

/** Builds every bundle (into a temporary folder, not dist/) and marked's lexer alone. */
export const measureBundles = async (): Promise<Sizes> => {
  const outdir = await mkdtemp(join(tmpdir(), "bundle-sizes-"));
  try {
    const bundles = await buildWidget(outdir);
    const lexer = sizeOf(
      "marked's lexer",
      await bundle(join(import.meta.dir, "marked-lexer-entry.ts"), "iife"),
    );
    return { bundles, lexer };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const ROLE: Readonly<Record<string, string>> = {
  "widget.js": "the chat: a classic script every page that embeds the widget loads",
  "widget-pay.js":
    "wallets, the transfer, Solana Pay and the demo wallet: an ES module the chat imports only when the visitor pays",
  "admin.js": "the owner's console, served at `/admin/console.js` ([insights.md](insights.md))",
};

/** The section docs/widget.md holds: one row per bundle, then the markdown parser's share. */
export const sizesSection = ({ bundles, lexer }: Sizes): string => {
  const widget = bundles.find((b) => b.file === "widget.js");
  if (widget === undefined) throw new Error("the build made no widget.js");
  const met = widget.gzipBytes < WIDGET_GZIP_GOAL ? "met" : "**not met**";
  return [
    BEGIN,
    "| bundle | minified | gzip -9 | what it is |",
    "|---|---|---|---|",
    ...bundles.map(
      (b) =>
        `| \`${b.file}\` | ${kib(b.bytes)} | ${b.file === "widget.js" ? `**${kib(b.gzipBytes)}**` : kib(b.gzipBytes)} | ${ROLE[b.file] ?? ""} |`,
    ),
    `| marked's lexer alone | ${kib(lexer.bytes)} | ${kib(lexer.gzipBytes)} | the markdown parser, part of \`widget.js\` |`,
    "",
    `Goal for \`widget.js\`: under ${kib(WIDGET_GZIP_GOAL)} gzipped (${met}).`,
    END,
  ].join("\n");
};

/** The section as the doc holds it now, or undefined when its markers are missing. */
export const sectionIn = (doc: string): string | undefined => {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  return begin < 0 || end < begin ? undefined : doc.slice(begin, end + END.length);
};

if (import.meta.main) {
  const section = sizesSection(await measureBundles());
  if (process.argv.includes("--write")) {
    const doc = await readFile(SIZES_DOC, "utf8");
    const current = sectionIn(doc);
    if (current === undefined) throw new Error(`${SIZES_DOC} has no bundle-sizes markers`);
    await writeFile(SIZES_DOC, doc.replace(current, section));
    console.log(`wrote the bundle sizes into ${SIZES_DOC}`);
  } else console.log(section);
}
