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
  { file: "widget.js", entry: join(SOURCE, "widget/main.ts"), format: "iife" },
  { file: "widget-pay.js", entry: join(SOURCE, "widget/pay/index.ts"), format: "esm" },
  // The owner's console (/admin/console.js), built the same way.
  { file: "admin.js", entry: join(SOURCE, "console/browser/main.ts"), format: "iife" },
] as const;

export interface BundleSize {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** Builds every bundle and writes it atomically (temp file, then rename); returns the sizes. */
export const buildWidget = async (outdir: string = WIDGET_DIST): Promise<ReadonlyArray<BundleSize>> => {
  await mkdir(outdir, { recursive: true });
  const sizes: BundleSize[] = [];
  for (const bundle of BUNDLES) {
    const result = await Bun.build({
      entrypoints: [bundle.entry],
      format: bundle.format,
      target: "browser",
      minify: true,
      // @solana/kit drops its development checks and messages in production builds.
      define: { "process.env.NODE_ENV": '"production"' },
    });
    const output = result.outputs[0];
    if (!result.success || output === undefined || result.outputs.length !== 1)
      throw new Error(`widget build failed: ${result.logs.map(String).join("\n")}`);
    const code = await output.text();
    const temporary = join(outdir, `.${bundle.file}.${process.pid}.tmp`);
    await writeFile(temporary, code);
    await rename(temporary, join(outdir, bundle.file));
    sizes.push({
      file: bundle.file,
      bytes: Buffer.byteLength(code),
      gzipBytes: gzipSync(code, { level: 9 }).length,
    });
  }
  return sizes;
};

if (import.meta.main) {
  for (const { file, bytes, gzipBytes } of await buildWidget()) {
    console.log(`${file}: ${(bytes / 1024).toFixed(1)} KiB, ${(gzipBytes / 1024).toFixed(1)} KiB gzipped`);
  }
}
