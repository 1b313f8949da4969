/**
 * Bundles the browser code with Bun.build into dist/widget/ (git-ignored): `widget.js`, the chat
 * (a classic script, so `<script src defer>` works on any page), and `widget-pay.js`, the wallet
 * and Solana Pay code, an ES module the chat imports only when the visitor pays. `npm start`
 * runs this first (prestart); `bun src/bundles/build.ts` prints the sizes.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { WIDGET_DIST } from "./paths.ts";

const SOURCE = fileURLToPath(new URL("../", import.meta.url));

/** The bundles: file name, entry point, format. */
const BUNDLES = [
  { file: "widget.js", entry: join(SOURCE, "widget/widget-entry.ts"), format: "iife" },
  { file: "widget-pay.js", entry: join(SOURCE, "widget/pay/pay-bundle.ts"), format: "esm" },
  // The owner's console (/admin/console.js), built the same way.
  { file: "admin.js", entry: join(SOURCE, "console/browser/console-entry.ts"), format: "iife" },
] as const;

export interface BundleSize {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** One entry point bundled for the browser, minified, as the service serves it. */
export const bundle = async (entry: string, format: "iife" | "esm"): Promise<string> => {
  const result = await Bun.build({
    entrypoints: [entry],
    format,
    target: "browser",
    minify: true,
    // @solana/kit drops its development checks and messages in production builds.
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const output = result.outputs[0];
  if (!result.success || output === undefined || result.outputs.length !== 1)
    throw new Error(`widget build failed: ${result.logs.map(String).join("\n")}`);
  return output.text();
};

/** A bundle's size as docs/widget.md states it: raw bytes, and gzip at level 9. */
export const sizeOf = (file: string, code: string): BundleSize => ({
  file,
  bytes: Buffer.byteLength(code),
  gzipBytes: gzipSync(code, { level: 9 }).length,
});

/** Builds every bundle and writes it atomically (temp file, then rename); returns the sizes. */
export const buildWidget = async (outdir: string = WIDGET_DIST): Promise<ReadonlyArray<BundleSize>> => {
  await mkdir(outdir, { recursive: true });
  const sizes: BundleSize[] = [];
  for (const { file, entry, format } of BUNDLES) {
    const code = await bundle(entry, format);
    const temporary = join(outdir, `.${file}.${process.pid}.tmp`);
    await writeFile(temporary, code);
    await rename(temporary, join(outdir, file));
    sizes.push(sizeOf(file, code));
  }
  return sizes;
};

if (import.meta.main) {
  for (const { file, bytes, gzipBytes } of await buildWidget()) {
    console.log(`${file}: ${(bytes / 1024).toFixed(1)} KiB, ${(gzipBytes / 1024).toFixed(1)} KiB gzipped`);
  }
}
