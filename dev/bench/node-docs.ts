/**
 * The Node.js API docs as a benchmark corpus: the Markdown files of Debian's nodejs-doc
 * package, fetched with `apt-get download` and unpacked with `dpkg -x` (never installed: that
 * would remove Node). Question files are read by dev/eval/questions.ts.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/** Where the docs are unpacked unless a bench is told otherwise. */
export const DEFAULT_NODE_DOCS_DIR = join(tmpdir(), "nodejs-api-md");

/** Unpacks the Markdown API docs of Debian's nodejs-doc into `dir` unless already there. */
export const ensureNodeDocs = (dir: string = DEFAULT_NODE_DOCS_DIR): string => {
  if (existsSync(dir) && readdirSync(dir).some((name) => name.endsWith(".md"))) return dir;
  const work = mkdtempSync(join(tmpdir(), "nodejs-doc-"));
  try {
    const run = (command: string, args: ReadonlyArray<string>) => {
      const result = spawnSync(command, args, { cwd: work, stdio: "inherit" });
      if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status})`);
    };
    run("apt-get", ["download", "nodejs-doc"]);
    const deb = readdirSync(work).find((name) => name.startsWith("nodejs-doc_") && name.endsWith(".deb"));
    if (deb === undefined) throw new Error("apt-get download nodejs-doc gave no .deb");
    run("dpkg", ["-x", deb, "extracted"]);
    const api = join(work, "extracted/usr/share/doc/nodejs/api");
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(api)) {
      if (name.endsWith(".md.gz"))
        writeFileSync(join(dir, name.slice(0, -3)), gunzipSync(readFileSync(join(api, name))));
      else if (name.endsWith(".md")) writeFileSync(join(dir, name), readFileSync(join(api, name)));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
};
