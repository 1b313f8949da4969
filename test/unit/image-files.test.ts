/**
 * What the container image holds, read from the Dockerfile (Docker cannot run here): every file
 * its final stage copies from the build context. The image must hold every module its CMD and
 * its build steps load (followed through static and dynamic imports, from the files themselves)
 * and nothing of the tooling: no dev/, examples/ or test/ file.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import {
  contextCopies,
  execForm,
  readDockerfile,
  type Stage,
  shellOf,
  textsOf,
} from "../support/dockerfile.ts";
import { REPO_ROOT } from "../support/service-process.ts";

const dockerfile = readDockerfile(REPO_ROOT);
const final = dockerfile.stages.at(-1) as Stage;

const filesUnder = (path: string): ReadonlyArray<string> =>
  statSync(join(REPO_ROOT, path)).isDirectory()
    ? readdirSync(join(REPO_ROOT, path)).flatMap((name) => filesUnder(join(path, name)))
    : [path];

/** Every file of the build context the final stage copies (node_modules comes from the deps stage). */
const imageFiles = new Set(contextCopies(final).flatMap(filesUnder));

const transpiler = new Bun.Transpiler({ loader: "ts" });

/** The repository files `entry` loads, itself included, following relative imports of any kind. */
const loadedBy = (entry: string): ReadonlySet<string> => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { path } of transpiler.scanImports(readFileSync(join(REPO_ROOT, file), "utf8"))) {
      if (!path.startsWith(".")) continue;
      const target = relative(REPO_ROOT, join(REPO_ROOT, dirname(file), path));
      expect(existsSync(join(REPO_ROOT, target)), `${file} imports ${path}`).toBe(true);
      visit(target);
    }
  };
  visit(entry);
  return seen;
};

/** The TypeScript files the image runs: its CMD's and its `bun <file>` build steps'. */
const entries = [
  ...execForm(textsOf(final, "CMD")[0] ?? "[]"),
  ...textsOf(final, "RUN").flatMap((run) => shellOf(run).split(" ")),
].filter((word) => word.endsWith(".ts"));

describe("the container image's files", () => {
  test("it runs the service's entry point and builds the widget", () => {
    expect([...entries].sort()).toEqual(["src/bundles/build.ts", "src/main.ts"]);
  });

  test("every module the image loads is in it", () => {
    for (const entry of entries)
      for (const file of loadedBy(entry))
        expect(imageFiles.has(file), `${file}, loaded by ${entry}`).toBe(true);
  });

  test("no tooling is in it: no dev/, examples/ or test/ file", () => {
    const tooling = [...imageFiles].filter((file) => /^(dev|examples|test)\//.test(file));
    expect(tooling).toEqual([]);
    expect(imageFiles.size).toBeGreaterThan(100);
  });

  test("the check sees a dev import: a module of the image that loaded the demo chain would fail it", () => {
    const demo = loadedBy("dev/demo/main.ts");
    expect([...demo].some((file) => file.startsWith("dev/localnet/"))).toBe(true);
    expect([...demo].some((file) => !imageFiles.has(file))).toBe(true);
  });
});
