/**
 * .env.example lists every variable the configuration reads, and nothing else; and the file
 * as written (defaults filled in, blanks left blank) is a valid configuration.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as Result from "effect/Result";
import { type Env, parseConfig } from "../../core/config.ts";
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

test("every variable the configuration reads is in .env.example, and only those", () => {
  // Some are read only in a mode (LLM_BASE_URL with an LLM key...): read with every mode on too.
  const everyMode: Record<string, string> = {
    LLM_API_KEY: "key",
    CHROMA_URL: "http://127.0.0.1:8000",
    CHAIN_NETWORK: "devnet",
    REDIS_URL: "redis://127.0.0.1:6379",
  };
  const read = new Set([...namesRead(() => undefined), ...namesRead((name) => everyMode[name])]);
  expect(Object.keys(example).sort()).toEqual([...read].sort());
});

test(".env.example as written is the embedded default configuration", () => {
  const parsed = parseConfig(example);
  expect(Result.isSuccess(parsed)).toBe(true);
  if (Result.isSuccess(parsed)) expect(parsed.success).toEqual(defaultConfig());
});
