/**
 * Finds the documents to ingest. A folder contributes every supported file below it (hidden
 * folders and node_modules skipped), with sources relative to that folder; a file given
 * directly has its own name as source.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, extname, join, relative, resolve, sep } from "node:path";
import { SUPPORTED_EXTENSIONS } from "./document.ts";

export interface SourceFile {
  readonly path: string;
  /** Path relative to the ingested root, with "/" separators. */
  readonly source: string;
}

const supported = (name: string) => SUPPORTED_EXTENSIONS.includes(extname(name).toLowerCase());

const walkFolder = (root: string, folder: string, out: SourceFile[]) => {
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".") && entry.name !== "node_modules") walkFolder(root, path, out);
    } else if (entry.isFile() && supported(entry.name)) {
      out.push({ path, source: relative(root, path).split(sep).join("/") });
    }
  }
};

/** Lists the supported files under the given files and folders; throws on a missing input. */
export const findSourceFiles = (inputs: ReadonlyArray<string>): ReadonlyArray<SourceFile> => {
  const out: SourceFile[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) throw new Error(`no such file or folder: ${input}`);
    if (stat.isDirectory()) walkFolder(path, path, out);
    else if (supported(path)) out.push({ path, source: basename(path) });
    else throw new Error(`unsupported file type: ${input} (use ${SUPPORTED_EXTENSIONS.join(", ")})`);
  }
  return out;
};
