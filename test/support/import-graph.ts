/**
 * The repository's import graph, read from the files with Bun's own scanner: static, dynamic and
 * re-export imports, type-only ones included (their `type` modifiers are dropped before the
 * scan, since the transpiler would otherwise erase them). Paths are repository-relative.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const transpiler = new Bun.Transpiler({ loader: "ts" });

/** The same text with every `type` import made a value import, so the scanner keeps it. */
const withTypeImportsKept = (text: string): string =>
  text
    .replace(/\bimport\s+type\s/g, "import ")
    .replace(/\bexport\s+type\s*\{/g, "export {")
    .replace(/([{,]\s*)type\s+(?=[\w$])/g, "$1");

/** Every .ts file under the given folders of `root`. */
export const sourceFiles = (root: string, folders: ReadonlyArray<string>): ReadonlyArray<string> => {
  const walk = (folder: string): ReadonlyArray<string> =>
    readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(path);
      return entry.name.endsWith(".ts") ? [path] : [];
    });
  return folders.flatMap(walk);
};

export interface ImportEdge {
  readonly from: string;
  /** Repository-relative for a relative import; the package name otherwise. */
  readonly to: string;
  readonly relative: boolean;
}

/** The imports of one file. */
export const importsOf = (root: string, file: string): ReadonlyArray<ImportEdge> =>
  transpiler
    .scanImports(withTypeImportsKept(readFileSync(join(root, file), "utf8")))
    .map(({ path }) =>
      path.startsWith(".")
        ? { from: file, to: relative(root, join(root, dirname(file), path)), relative: true }
        : { from: file, to: path, relative: false },
    );

/** The import cycles among `files` (each as its files in order), by Tarjan's strongly connected components. */
export const importCycles = (
  root: string,
  files: ReadonlyArray<string>,
): ReadonlyArray<ReadonlyArray<string>> => {
  const next = new Map(
    files.map((file) => [
      file,
      importsOf(root, file)
        .filter((edge) => edge.relative)
        .map((edge) => edge.to),
    ]),
  );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!next.has(target)) continue;
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)?.includes(file)) cycles.push(component.reverse());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return cycles;
};
