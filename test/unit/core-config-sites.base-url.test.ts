/**
 * A folder site's `baseUrl` in the sites file (core/config/config-site.ts): kept with the folder so its
 * sources link to its pages, refused for a URL site (its sources already link), and every bad
 * value named as one problem of the file's one ConfigError.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Result from "effect/Result";
import { DEFAULT_MCP_TOOL_PRICES } from "../../core/config/config-mcp.ts";
import type { SiteDefaults } from "../../core/config/config-site.ts";
import { parseSites } from "../../core/config/config-sites-file.ts";
import { loadSitesFile } from "../../src/sites/sites-file.ts";

const DEFAULTS: SiteDefaults = {
  freeQueries: 3,
  mcpToolPrices: DEFAULT_MCP_TOOL_PRICES,
  hashToken: (token) => `hash-of-${token}`,
};
const parsed = (sites: ReadonlyArray<Record<string, unknown>>) => parseSites({ sites }, {}, DEFAULTS);
const problemsOf = (sites: ReadonlyArray<Record<string, unknown>>): ReadonlyArray<string> => {
  const result = parsed(sites);
  if (Result.isSuccess(result)) throw new Error("expected a ConfigError");
  expect(result.failure._tag).toBe("ConfigError");
  return result.failure.problems;
};

describe("baseUrl of a folder site", () => {
  test("is kept with the folder, as written (trimmed)", () => {
    const result = parsed([{ id: "kettle", docs: "./docs", baseUrl: " https://docs.example.com/kettle/ " }]);
    expect(Result.isSuccess(result) && result.success.sites[0]?.docs).toEqual({
      kind: "folder",
      path: "./docs",
      baseUrl: "https://docs.example.com/kettle/",
    });
  });

  test("left out, the folder has none", () => {
    const result = parsed([{ id: "kettle", docs: "./docs" }]);
    expect(Result.isSuccess(result) && result.success.sites[0]?.docs).toStrictEqual({
      kind: "folder",
      path: "./docs",
    });
  });

  test("http is taken as well as https, with a port and a path", () => {
    const result = parsed([{ id: "kettle", docs: "./docs", baseUrl: "http://127.0.0.1:8080/docs" }]);
    expect(Result.isSuccess(result) && result.success.sites[0]?.docs).toEqual({
      kind: "folder",
      path: "./docs",
      baseUrl: "http://127.0.0.1:8080/docs",
    });
  });

  test.each([
    ["a relative path", "/docs/"],
    ["a host without scheme", "docs.example.com"],
    ["another scheme", "ftp://docs.example.com/"],
    ["a file URL", "file:///srv/docs"],
    ["a query", "https://docs.example.com/?v=2"],
    ["a fragment", "https://docs.example.com/#top"],
    ["a line break inside", "https://docs.exam\nple.com/"],
    ["a number", 42],
    ["an empty text", ""],
  ])("%s is one problem naming the site and the field", (_case, value) => {
    const problems = problemsOf([{ id: "kettle", docs: "./docs", baseUrl: value }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toStartWith("SITES_FILE: sites[0].baseUrl: must be the http(s) URL");
    expect(problems[0]).toContain(`(got ${JSON.stringify(value)})`);
  });

  test("a URL site's baseUrl is refused: its sources already link to its pages", () => {
    expect(
      problemsOf([{ id: "acme", docs: "https://docs.acme.dev/", baseUrl: "https://docs.acme.dev/" }]),
    ).toEqual([
      "SITES_FILE: sites[0].baseUrl: only for a folder site: a URL site's sources already link to its pages",
    ]);
  });

  test("a bad baseUrl is named together with the file's other problems", () => {
    const problems = problemsOf([
      { id: "kettle", docs: "./docs", baseUrl: "docs.example.com" },
      { id: "pot", docs: "./pot", price: "cheap" },
    ]);
    expect(problems.map((problem) => problem.split(":").slice(0, 2).join(":"))).toEqual([
      "SITES_FILE: sites[0].baseUrl",
      "SITES_FILE: sites[1].price",
    ]);
  });

  test("a misspelt key is refused, baseUrl listed among the known ones", () => {
    const [problem] = problemsOf([{ id: "kettle", docs: "./docs", baseURL: "https://docs.example.com/" }]);
    expect(problem).toStartWith("SITES_FILE: sites[0].baseURL: unknown key (known: id, docs, baseUrl,");
  });
});

test("read from a sites file, the baseUrl stays with the folder made absolute", () => {
  const dir = mkdtempSync(join(tmpdir(), "sites-base-url-"));
  const file = join(dir, "sites.yaml");
  writeFileSync(file, "sites:\n  - id: kettle\n    docs: ./docs\n    baseUrl: https://docs.example.com/\n");
  const loaded = loadSitesFile(file, {}, DEFAULTS);
  rmSync(dir, { recursive: true, force: true });
  expect(Result.isSuccess(loaded) && loaded.success.sites[0]?.docs).toEqual({
    kind: "folder",
    path: join(dir, "docs"),
    baseUrl: "https://docs.example.com/",
  });
});
