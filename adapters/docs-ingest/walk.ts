/**
 * Finds the documents to ingest. A folder contributes every supported file below it (hidden
 * folders and node_modules skipped), also gzipped ones (`fs.md.gz` is the page `fs.md`).
 * Sources are paths relative to the deepest folder holding every input, so same-named files
 * in different folders stay apart (`v1/index.md`, `v2/index.md`). A page present both as
 * Markdown and as its HTML rendering (`fs.md` beside `fs.html`) is read once, from the
 * Markdown.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { gunzipSync } from "node:zlib";
import { HTML_EXTENSIONS, MARKDOWN_EXTENSIONS, SUPPORTED_EXTENSIONS } from "./page-types.ts";

export interface SourceFile {
  readonly path: string;
  /** Path relative to the common root, with "/" separators and without ".gz". */
  readonly source: string;
}

const withoutGz = (name: string) => (name.toLowerCase().endsWith(".gz") ? name.slice(0, -3) : name);
const extensionOf = (name: string) => extname(withoutGz(name)).toLowerCase();
const supported = (name: string) => SUPPORTED_EXTENSIONS.includes(extensionOf(name));
const stemOf = (name: string) => withoutGz(name).slice(0, -extensionOf(name).length);

/** Supported files of one folder, without the HTML pages whose Markdown source is there too. */
const pagesOf = (names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const markdown = new Set(
    names.filter((name) => MARKDOWN_EXTENSIONS.includes(extensionOf(name))).map(stemOf),
  );
  return names.filter(
    (name) => supported(name) && !(HTML_EXTENSIONS.includes(extensionOf(name)) && markdown.has(stemOf(name))),
  );
};

const walkFolder = (folder: string, out: string[]) => {
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  for (const entry of entries)
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
      walkFolder(join(folder, entry.name), out);
  for (const name of pagesOf(files)) out.push(join(folder, name));
};

/** The deepest folder that holds every path (a folder input counts as itself). */
const commonRoot = (folders: ReadonlyArray<string>): string =>
  folders.reduce((root, folder) => {
    let candidate = root;
    while (candidate !== dirname(candidate) && relative(candidate, folder).startsWith(".."))
      candidate = dirname(candidate);
    return candidate;
  });

/** Lists the supported files under the given files and folders; throws on a missing input. */
export const findSourceFiles = (inputs: ReadonlyArray<string>): ReadonlyArray<SourceFile> => {
  const paths: string[] = [];
  const folders: string[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) throw new Error(`no such file or folder: ${input}`);
    if (stat.isDirectory()) {
      walkFolder(path, paths);
      folders.push(path);
    } else if (supported(path)) {
      paths.push(path);
      folders.push(dirname(path));
    } else
      throw new Error(
        `unsupported file type: ${input} (use ${SUPPORTED_EXTENSIONS.join(", ")}, or .gz of them)`,
      );
  }
  if (paths.length === 0) return [];
  const root = commonRoot(folders);
  const unique = [...new Set(paths)];
  return unique.map((path) => ({ path, source: withoutGz(relative(root, path).split(sep).join("/")) }));
};

/** The file's text (gunzipped when it ends in .gz). */
export const readSource = (file: SourceFile): string =>
  file.path.toLowerCase().endsWith(".gz")
    ? gunzipSync(readFileSync(file.path)).toString("utf8")
    : readFileSync(file.path, "utf8");

/** The name a set of inputs is known by when the user gives none: its common folder's name. */
export const defaultCollection = (inputs: ReadonlyArray<string>): string => {
  const folders = inputs.map((input) => {
    const path = resolve(input);
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ? path : dirname(path);
  });
  return folders.length === 0 ? "docs" : commonRoot(folders).split(sep).pop() || "docs";
};
