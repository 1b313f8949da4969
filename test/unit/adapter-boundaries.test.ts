/**
 * Adapter folders stay independent: a file imports its own folder, core/ and adapters/shared/
 * (helpers two or more adapters use), never another adapter's files: choosing between adapters
 * is the composition's job (src/runtime/adapter-layers.ts). shared/ itself imports nothing but
 * core/ and shared/.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ADAPTERS = fileURLToPath(new URL("../../adapters/", import.meta.url));
// Static, type-only, re-export, side-effect and dynamic imports alike.
const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g;

/** Why `file` may not import `specifier` (both as written, `file` relative to adapters/), or undefined. */
const offence = (file: string, specifier: string): string | undefined => {
  const target = relative(ADAPTERS, join(ADAPTERS, dirname(file), specifier));
  const [folder] = file.split("/");
  const [targetFolder] = target.split("/");
  if (target.startsWith("../core/") || targetFolder === folder) return undefined;
  if (targetFolder === "shared" && folder !== "shared") return undefined;
  return `${file} imports ${target}`;
};

const importsOf = (file: string): ReadonlyArray<string> =>
  [...readFileSync(join(ADAPTERS, file), "utf8").matchAll(RELATIVE_IMPORT)].map((match) => match[1]!);

test("no adapter imports another adapter's files", () => {
  const files = [...new Bun.Glob("**/*.ts").scanSync({ cwd: ADAPTERS })];
  const pairs = files.flatMap((file) => importsOf(file).map((specifier) => [file, specifier] as const));
  expect(pairs.length).toBeGreaterThan(100); // the scan sees the imports
  expect(pairs.flatMap(([file, specifier]) => offence(file, specifier) ?? [])).toEqual([]);
});

test("the rule itself: what is allowed and what is not", () => {
  expect(offence("store-redis/redis-store.ts", "../shared/random-ids.ts")).toBeUndefined();
  expect(offence("shared/ranking/lexical.ts", "../../../core/ports/retrieval.ts")).toBeUndefined();
  expect(offence("shared/ranking/bm25.ts", "../text-analysis/analyze.ts")).toBeUndefined();
  expect(offence("store-redis/redis-store.ts", "../store-memory/random-ids.ts")).toBe(
    "store-redis/redis-store.ts imports store-memory/random-ids.ts",
  );
  expect(offence("llm-fallback/with-fallback.ts", "../llm-extractive/index.ts")).toBeDefined();
  expect(offence("llm-groq/groq-generator.ts", "../llm-extractive/index.ts")).toBeDefined();
  expect(offence("shared/retry.ts", "../llm-groq/provider-failure.ts")).toBeDefined();
  expect(offence("chain-solana/rpc-call.ts", "../../src/runtime/boot.ts")).toBeDefined();
});
