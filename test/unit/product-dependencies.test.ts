/**
 * Every package the product imports (core/, adapters/, src/, type-only imports aside) is in
 * package.json's `dependencies` (or `optionalDependencies`): the image installs production dependencies only, so a package
 * present in development through a devDependency (as `yaml` was, under the MCP conformance
 * suite) would be missing in production, and SITES_FILE would fail to load there.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sourceFiles } from "../support/import-graph.ts";
import { REPO_ROOT } from "../support/service-process.ts";

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const transpiler = new Bun.Transpiler({ loader: "ts" });

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] ?? "");

describe("the product's packages", () => {
  test("every package imported by core/, adapters/ and src/ is a production dependency", () => {
    const imported = new Set<string>();
    for (const file of sourceFiles(REPO_ROOT, ["core", "adapters", "src"])) {
      // Type-only imports vanish at run time: the scanner skips them.
      for (const { path } of transpiler.scanImports(readFileSync(join(REPO_ROOT, file), "utf8")))
        if (!path.startsWith(".") && !path.startsWith("node:") && !path.startsWith("bun:"))
          imported.add(packageOf(path));
    }
    expect(imported.has("yaml")).toBe(true);
    // Optional ones (the transformers embedder) install in production too, unless left out on purpose.
    const installed = { ...manifest.dependencies, ...manifest.optionalDependencies };
    const missing = [...imported].filter((name) => installed[name] === undefined);
    expect(missing).toEqual([]);
  });
});
