/**
 * The engine settings measured for a 512 MB container (docs/performance.md, "Memory on both
 * runtimes") stay where they were measured: JavaScriptCore told the memory limit compose gives
 * the service, and `npm run start:deno` capping glibc's arenas, run through env(1) by the tests.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { envOf, readDockerfile } from "../support/dockerfile.ts";
import { DENO_ENTRY, npmScript, REPO_ROOT } from "../support/service-process.ts";

const SIZES: Readonly<Record<string, number>> = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 };

describe("engine settings", () => {
  test("the image tells JavaScriptCore compose's memory limit, in bytes", () => {
    const compose = readFileSync(join(REPO_ROOT, "compose.yaml"), "utf8");
    const [, amount = "", unit = ""] = /^\s+memory:\s*(\d+)([KMG])\s*$/m.exec(compose) ?? [];
    const image = envOf(readDockerfile(REPO_ROOT).stages.at(-1)!);
    expect(Number(image.BUN_JSC_forceRAMSize)).toBe(Number(amount) * (SIZES[unit] ?? Number.NaN));
  });

  test("npm run start:deno caps glibc's arenas, and the tests run it the same way", () => {
    const scripts = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts;
    expect(scripts["start:deno"]).toStartWith("MALLOC_ARENA_MAX=2 deno run ");
    expect(DENO_ENTRY.slice(0, 3)).toEqual([
      "env",
      "MALLOC_ARENA_MAX=2",
      join(REPO_ROOT, "node_modules/.bin/deno"),
    ]);
    // A script without assignments is its command alone.
    expect(npmScript("check:deno")[0]).toBe(join(REPO_ROOT, "node_modules/.bin/deno"));
  });
});
