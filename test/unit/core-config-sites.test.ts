/**
 * The sites file's rules (core/config/config-site.ts): every field's rule names the site and the
 * field, several problems come out together, an unknown key is refused, and the owner's token
 * (and its hash) never appears in a problem.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import * as Result from "effect/Result";
import type { Env } from "../../core/config/config.ts";
import { DEFAULT_MCP_TOOL_PRICES } from "../../core/config/config-mcp.ts";
import type { SiteDefaults, SitesSet } from "../../core/config/config-site.ts";
import { parseSites } from "../../core/config/config-sites-file.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const DEFAULTS: SiteDefaults = {
  freeQueries: 3,
  mcpToolPrices: { ...DEFAULT_MCP_TOOL_PRICES, ask_docs: 2 },
  hashToken: sha256,
};
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const TOKEN = "acme-owner-token-0123456789";

const ok = (raw: unknown, env: Env = {}): SitesSet => {
  const result = parseSites(raw, env, DEFAULTS);
  if (Result.isFailure(result)) throw new Error(result.failure.message);
  return result.success;
};
const problems = (raw: unknown, env: Env = {}): ReadonlyArray<string> => {
  const result = parseSites(raw, env, DEFAULTS);
  if (Result.isSuccess(result)) throw new Error("expected a ConfigError");
  expect(result.failure._tag).toBe("ConfigError");
  return result.failure.problems;
};
/** The one site `{id, docs}` plus `extra`. */
const one = (extra: Record<string, unknown>) => ({ sites: [{ id: "acme", docs: "./docs/acme", ...extra }] });
/** The problem texts of a file of one site with `extra`, each without its `SITES_FILE: sites[0].` prefix. */
const fieldProblems = (extra: Record<string, unknown>, env: Env = {}) =>
  problems(one(extra), env).map((text) => text.replace(/^SITES_FILE: sites\[0\]\./, ""));

describe("a valid sites file", () => {
  test("a site with only an id and docs takes the service's defaults", () => {
    expect(ok(one({}))).toEqual({
      sites: [
        {
          id: "acme",
          docs: { kind: "folder", path: "./docs/acme" },
          origins: [],
          hosts: [],
          title: undefined,
          unitsPerQuery: 1000n,
          freeQueries: 3,
          wallet: undefined,
          ownerTokenSha256: undefined,
          mcpToolPrices: { search_docs: 0, read_page: 0, ask_docs: 2 },
          llm: true,
          productName: undefined,
        },
      ],
    });
  });

  test("every field given", () => {
    const [site] = ok(
      one({
        docs: "https://docs.acme.dev/guide/",
        origins: ["https://acme.dev/", "http://localhost:5173"],
        hosts: ["Docs-Chat.Acme.dev", "docs.acme.dev:8443", "[::1]:3000", "docs-chat.acme.dev"],
        title: "Acme docs",
        price: "0.002",
        freeQuestions: 0,
        wallet: WALLET,
        ownerTokenEnv: "ACME_OWNER_TOKEN",
        mcpToolPrices: { search_docs: 1 },
        llm: false,
        productName: "Acme",
        language: "de",
      }),
      { ACME_OWNER_TOKEN: ` ${TOKEN} ` },
    ).sites;
    expect(site).toEqual({
      id: "acme",
      docs: { kind: "url", url: "https://docs.acme.dev/guide/" },
      origins: ["https://acme.dev", "http://localhost:5173"],
      hosts: ["docs-chat.acme.dev", "docs.acme.dev:8443", "[::1]:3000"],
      title: "Acme docs",
      unitsPerQuery: 2000n,
      freeQueries: 0,
      wallet: WALLET,
      ownerTokenSha256: sha256(TOKEN),
      mcpToolPrices: { search_docs: 1, read_page: 0, ask_docs: 2 },
      llm: false,
      productName: "Acme",
      language: "de",
    });
  });

  test("the price, as decimal text, a JSON number or questions per USDC, is exact base units", () => {
    const units = (extra: Record<string, unknown>) => ok(one(extra)).sites[0]?.unitsPerQuery;
    expect(units({ price: "0.000001" })).toBe(1n);
    expect(units({ price: "1" })).toBe(1_000_000n);
    expect(units({ price: 0.07 })).toBe(70_000n);
    expect(units({ questionsPerUsdc: 500 })).toBe(2000n);
    expect(units({ questionsPerUsdc: 1_000_000 })).toBe(1n);
    expect(units({ questionsPerUsdc: 1 })).toBe(1_000_000n);
  });

  test("a hash given as such is kept in lower case", () => {
    expect(ok(one({ ownerTokenSha256: sha256(TOKEN).toUpperCase() })).sites[0]?.ownerTokenSha256).toBe(
      sha256(TOKEN),
    );
  });

  test("no sites at all is a valid file (the default site alone)", () => {
    expect(ok({ sites: [] })).toEqual({ sites: [] });
  });
});

describe("each bad field is named", () => {
  const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
    ["id missing", { id: undefined }, "id: required"],
    ["id upper case", { id: "Acme" }, 'id: must be 1 to 40 of a-z, 0-9 and - (got "Acme")'],
    ["id too long", { id: "a".repeat(41) }, "id: must be 1 to 40"],
    ["id not text", { id: 7 }, "id: must be 1 to 40 of a-z, 0-9 and - (got 7)"],
    ["docs missing", { docs: undefined }, "docs: required"],
    ["docs ftp", { docs: "ftp://docs.acme.dev" }, "docs: must be an http(s) URL"],
    ["docs empty", { docs: " " }, "docs: must be an http(s) URL"],
    ["origin with a path", { origins: ["https://acme.dev/docs"] }, "origins: is not an origin like"],
    ["origin wildcard", { origins: ["https://*.acme.dev"] }, "origins: is not an origin like"],
    [
      "origins not a list",
      { origins: "https://acme.dev" },
      'origins: must be a list (got "https://acme.dev")',
    ],
    ["host with a scheme", { hosts: ["https://acme.dev"] }, "hosts: is not a host name"],
    ["host with a path", { hosts: ["acme.dev/docs"] }, "hosts: is not a host name"],
    ["host port 0", { hosts: ["acme.dev:0"] }, "hosts: is not a host name"],
    ["host port too high", { hosts: ["acme.dev:65536"] }, "hosts: is not a host name"],
    ["title empty", { title: "" }, "title: must be text of 1 to 120 characters on one line"],
    ["title two lines", { title: "Acme\ndocs" }, "title: must be text of 1 to 120"],
    ["price below a base unit", { price: "0.0000001" }, "price: must be USDC per question"],
    ["price zero", { price: "0" }, "price: must be USDC per question"],
    ["price above 1 USDC", { price: "1.000001" }, "price: must be USDC per question"],
    ["price not a number", { price: "two cents" }, "price: must be USDC per question"],
    ["price inexact float", { price: 0.1 + 0.2 }, "price: must be USDC per question"],
    ["questionsPerUsdc not dividing", { questionsPerUsdc: 3 }, "questionsPerUsdc: must be a whole number"],
    ["questionsPerUsdc zero", { questionsPerUsdc: 0 }, "questionsPerUsdc: must be a whole number"],
    ["questionsPerUsdc fraction", { questionsPerUsdc: 2.5 }, "questionsPerUsdc: must be a whole number"],
    ["questionsPerUsdc text", { questionsPerUsdc: "500" }, "questionsPerUsdc: must be a whole number"],
    [
      "price and questionsPerUsdc",
      { price: "0.002", questionsPerUsdc: 500 },
      "price: give price or questionsPerUsdc, not both",
    ],
    [
      "freeQuestions negative",
      { freeQuestions: -1 },
      "freeQuestions: must be a whole number from 0 to 1000000 (got -1)",
    ],
    ["freeQuestions text", { freeQuestions: "3" }, "freeQuestions: must be a whole number"],
    ["wallet not base58", { wallet: "0xabc" }, 'wallet: is not a base58 address (got "0xabc")'],
    ["wallet too short", { wallet: "9WzDXwBbmkg8ZTbN" }, "wallet: is not a base58 address"],
    ["tool unknown", { mcpToolPrices: { ask: 1 } }, 'mcpToolPrices: "ask" is not a tool'],
    [
      "ask_docs free",
      { mcpToolPrices: { ask_docs: 0 } },
      "mcpToolPrices: ask_docs must cost from 1 to 100 questions (got 0)",
    ],
    [
      "tool too dear",
      { mcpToolPrices: { read_page: 101 } },
      "mcpToolPrices: read_page must cost from 0 to 100",
    ],
    [
      "tool price text",
      { mcpToolPrices: { read_page: "1" } },
      "mcpToolPrices: read_page must cost a whole number",
    ],
    ["tool prices as env text", { mcpToolPrices: "ask_docs=2" }, "mcpToolPrices: must be an object like"],
    ["llm as text", { llm: "false" }, 'llm: must be true or false (got "false")'],
    ["productName too long", { productName: "x".repeat(81) }, "productName: must be text of 1 to 80"],
    ["a language we cannot analyse", { language: "klingon" }, "language: must be one of en, de, fr"],
    ["a language in capitals", { language: "DE" }, "language: must be one of en, de, fr"],
    ["a misspelt key", { prices: "0.002" }, "prices: unknown key (known: id, docs,"],
    [
      "ownerTokenEnv not a name",
      { ownerTokenEnv: "acme token" },
      "ownerTokenEnv: must name an environment variable",
    ],
    [
      "ownerTokenEnv unset",
      { ownerTokenEnv: "ACME_OWNER_TOKEN" },
      "ownerTokenEnv: ACME_OWNER_TOKEN is not set",
    ],
    ["ownerTokenSha256 short", { ownerTokenSha256: "abc" }, "ownerTokenSha256: must be 64 hex characters"],
  ];
  for (const [name, extra, expected] of cases)
    test(name, () => {
      const list = fieldProblems(extra);
      expect(list).toHaveLength(1);
      expect(list[0]).toStartWith(expected);
    });

  test("both ways of giving the owner's token are refused", () => {
    expect(
      fieldProblems(
        { ownerTokenSha256: sha256(TOKEN), ownerTokenEnv: "ACME_OWNER_TOKEN" },
        {
          ACME_OWNER_TOKEN: TOKEN,
        },
      ),
    ).toEqual(["ownerTokenSha256: give ownerTokenSha256 or ownerTokenEnv, not both"]);
  });

  test("the file's shape: not an object, no list, an unknown top key, a site that is no object", () => {
    expect(problems([])).toEqual(['SITES_FILE: must hold {"sites": [...]}, a list of sites']);
    expect(problems({ site: [] })).toEqual(['SITES_FILE: must hold {"sites": [...]}, a list of sites']);
    expect(problems({ sites: ["acme"], version: 2 })).toEqual([
      "SITES_FILE: version: unknown key (known: sites)",
      'SITES_FILE: sites[0]: must be an object with an id and docs (got "acme")',
    ]);
  });
});

describe("several problems at once, across sites", () => {
  test("every bad field of every site is listed, each with its site's place", () => {
    const list = problems({
      sites: [
        { id: "ok", docs: "./ok" },
        { id: "Bad", docs: "ftp://x", price: "free", wallet: "nope", titel: "typo" },
        { docs: "./b", freeQuestions: 1.5 },
      ],
    });
    expect(list.map((text) => text.slice(0, text.indexOf(":", "SITES_FILE: ".length)))).toEqual([
      "SITES_FILE: sites[1].titel",
      "SITES_FILE: sites[1].id",
      "SITES_FILE: sites[1].docs",
      "SITES_FILE: sites[1].price",
      "SITES_FILE: sites[1].wallet",
      "SITES_FILE: sites[2].id",
      "SITES_FILE: sites[2].freeQuestions",
    ]);
  });

  test("ids are unique, and a host belongs to one site only", () => {
    expect(
      problems({
        sites: [
          { id: "acme", docs: "./a", hosts: ["docs.acme.dev"] },
          { id: "bravo", docs: "./b", hosts: ["DOCS.acme.dev", "wiki.acme.dev:8443"] },
          { id: "acme", docs: "./c" },
          // A name is one site's whatever the port: another port is no other host.
          { id: "charlie", docs: "./d", hosts: ["wiki.acme.dev:443"] },
        ],
      }),
    ).toEqual([
      'SITES_FILE: sites[1].hosts: "docs.acme.dev" is also a host of site "acme"',
      'SITES_FILE: sites[2].id: "acme" is also the id of sites[0]',
      'SITES_FILE: sites[3].hosts: "wiki.acme.dev:443" is also a host of site "bravo"',
    ]);
  });

  test("a repeated id is named even when a site that claims it has other problems", () => {
    expect(
      problems({
        sites: [
          { id: "acme", docs: "./a" },
          { id: "bravo", docs: "./b", price: "cheap" },
          { id: "bravo", docs: "./c" },
          { id: "acme", docs: "./d", freeQuestions: -1 },
        ],
      }).map((text) => text.slice(0, text.indexOf(":", "SITES_FILE: ".length))),
    ).toEqual([
      "SITES_FILE: sites[1].price",
      "SITES_FILE: sites[3].freeQuestions",
      "SITES_FILE: sites[2].id",
      "SITES_FILE: sites[3].id",
    ]);
  });

  test("a host with and without a port is one host: two sites cannot share the name", () => {
    expect(
      problems({
        sites: [
          { id: "a", docs: "./a", hosts: ["docs.acme.dev"] },
          { id: "b", docs: "./b", hosts: ["docs.acme.dev:8080"] },
        ],
      }),
    ).toEqual(['SITES_FILE: sites[1].hosts: "docs.acme.dev:8080" is also a host of site "a"']);
  });
});

describe("secrets never in a problem", () => {
  test("a short token read from the environment is refused without showing it", () => {
    const short = "tiny-secret";
    const list = problems(one({ ownerTokenEnv: "ACME_OWNER_TOKEN" }), { ACME_OWNER_TOKEN: short });
    expect(list).toEqual([
      "SITES_FILE: sites[0].ownerTokenEnv: ACME_OWNER_TOKEN must be at least 16 characters (value hidden)",
    ]);
    expect(list.join("\n")).not.toContain(short);
  });

  test("a token written where its variable's name goes, or where its hash goes, is not shown", () => {
    const list = problems({
      sites: [
        { id: "a", docs: "./a", ownerTokenEnv: TOKEN },
        { id: "b", docs: "./b", ownerTokenSha256: TOKEN },
        { id: "c", docs: "./c", ownerToken: TOKEN },
      ],
    });
    expect(list).toHaveLength(3);
    expect(list.join("\n")).not.toContain(TOKEN);
    expect(list.join("\n")).not.toContain("0123456789");
  });

  test("a bad file's other problems do not carry the token of a good variable", () => {
    const list = problems(one({ ownerTokenEnv: "ACME_OWNER_TOKEN", price: "x" }), {
      ACME_OWNER_TOKEN: TOKEN,
    });
    expect(list).toEqual([
      'SITES_FILE: sites[0].price: must be USDC per question, from 0.000001 to 1, like "0.002" (got "x")',
    ]);
  });
});
