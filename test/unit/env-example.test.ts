/**
 * .env.example and docs/configuration.md's tables list every variable the configuration reads,
 * and nothing else; the main table holds at most 25 (the rest are advanced settings or
 * ceilings); and .env.example as written (defaults filled in, blanks left blank) is a valid
 * configuration.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as Result from "effect/Result";
import { type Env, parseConfig } from "../../core/config/config.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { REPO_ROOT } from "../support/service-process.ts";

const example = Object.fromEntries(
  readFileSync(join(REPO_ROOT, ".env.example"), "utf8")
    .split("\n")
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
);

/** The names parseConfig looks up in `env` (the values come from `lookup`). */
const namesRead = (lookup: (name: string) => string | undefined): Set<string> => {
  const names = new Set<string>();
  parseConfig(
    new Proxy({} as Env, {
      get: (_, name) => {
        names.add(String(name));
        return lookup(String(name));
      },
    }),
  );
  return names;
};

// Some are read only in a mode (LLM_BASE_URL with an LLM key...): read with every mode on too.
const everyMode: Record<string, string> = {
  LLM_API_KEY: "key",
  CHROMA_URL: "http://127.0.0.1:8000",
  CHAIN_NETWORK: "devnet",
  REDIS_URL: "redis://127.0.0.1:6379",
};
const read = [...new Set([...namesRead(() => undefined), ...namesRead((name) => everyMode[name])])].sort();

test("every variable the configuration reads is in .env.example, and only those", () => {
  expect(Object.keys(example).sort()).toEqual(read);
});

/** The variables named by the first cell of each row of the tables of `markdown`. */
const rowNames = (markdown: string) =>
  [...markdown.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1] as string);

test("docs/configuration.md has a row for every variable read and none for another; the main table, at most 25", () => {
  const doc = readFileSync(join(REPO_ROOT, "docs", "configuration.md"), "utf8");
  expect([...new Set(rowNames(doc))].sort()).toEqual(read);
  const main = doc.slice(doc.indexOf("| variable |"), doc.indexOf("### Advanced settings"));
  expect(rowNames(main).length).toBeLessThanOrEqual(25);
});

test(".env.example as written is the embedded default configuration", () => {
  const parsed = parseConfig(example);
  expect(Result.isSuccess(parsed)).toBe(true);
  if (Result.isSuccess(parsed)) expect(parsed.success).toEqual(defaultConfig());
});
