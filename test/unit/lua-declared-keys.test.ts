/**
 * No Lua script of the Redis store builds a key name: every key a script touches is passed as
 * KEYS. A Redis Cluster routes a script by its declared keys, so a key built inside it (a prefix
 * from ARGV joined to a wallet read from a hash) is one the cluster never checked: on another
 * slot the script fails, on the same slot it works by luck. Read from the sources: every
 * template literal of adapters/store-redis holding `redis.call`. A key position (the argument
 * after the command's name) must be KEYS[...], or a name, field or table entry that is never
 * assigned a concatenation (`..`) or an ARGV; a Lua function's parameter used as a key must be
 * given such an expression at every call. `unpack(...)` in a key position is refused (its names
 * are data). The same checker is run against the scripts of before, which built keys, so it is
 * known to catch them.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const DIR = join(import.meta.dir, "../../adapters/store-redis");

/** Commands whose first argument is not a key. */
const KEYLESS = new Set(["TIME", "PING", "ECHO"]);

/** The text of each template literal holding a Redis call, by file. */
const scriptsOf = (source: string): string[] =>
  [...source.matchAll(/`([^`]*)`/g)]
    .map((match) => match[1] ?? "")
    .filter((text) => text.includes("redis.call"));

/** The arguments of a call whose "(" is at `open`, split at top-level commas. */
const argumentsAt = (text: string, open: number): string[] => {
  const args: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "{" || c === "[") depth++;
    if (c === ")" || c === "}" || c === "]") {
      if (depth === 0) {
        args.push(current.trim());
        return args;
      }
      depth--;
    }
    if (c === "," && depth === 0) {
      args.push(current.trim());
      current = "";
    } else current += c;
  }
  return args;
};

/** An expression that builds a name, or is data: never a key. */
const builds = (expression: string): boolean =>
  expression.includes("..") || /^ARGV\b/.test(expression) || /^unpack\(|^table\.unpack\(/.test(expression);

/** The name an expression in a key position is held in: `key`, `s` of `s.key`, `declared` of `declared[hash]`. */
const holderOf = (expression: string): string | undefined => /^([A-Za-z_]\w*)/.exec(expression)?.[1];

/** Every problem of one body of Lua (all the scripts of the store joined, so functions are known across them). */
const undeclaredKeys = (lua: string): string[] => {
  const problems: string[] = [];
  const keyExpressions: string[] = [];
  for (const match of lua.matchAll(/redis\.call\(/g)) {
    const [command = "", key] = argumentsAt(lua, match.index + "redis.call".length);
    if (key === undefined || KEYLESS.has(command.replace(/['"]/g, "").toUpperCase())) continue;
    keyExpressions.push(key);
    if (builds(key)) problems.push(`${command} builds its key: ${key}`);
  }
  // Functions whose parameters reach a key position: every call must pass a key expression.
  for (const fn of lua.matchAll(/function\s+([A-Za-z_]\w*)\s*\(([^)]*)\)/g)) {
    const params = (fn[2] ?? "").split(",").map((param) => param.trim());
    const body = lua.slice(fn.index, lua.indexOf("\nend", fn.index));
    const keyed = params.flatMap((param, i) =>
      keyExpressions.some((key) => holderOf(key) === param) &&
      new RegExp(`redis\\.call\\([^,]+,\\s*${param}\\b`).test(body)
        ? [i]
        : [],
    );
    if (keyed.length === 0) continue;
    for (const call of lua.matchAll(new RegExp(`(?<!function\\s)\\b${fn[1]}\\(`, "g"))) {
      const args = argumentsAt(lua, call.index + (fn[1] ?? "").length);
      for (const i of keyed)
        if (args[i] !== undefined && builds(args[i]!))
          problems.push(`${fn[1]} is given a built key: ${args[i]}`);
    }
  }
  // Names in key positions: never assigned a built name.
  const holders = new Set(
    keyExpressions.map(holderOf).filter((name) => name !== undefined && name !== "KEYS"),
  );
  for (const name of holders)
    for (const assigned of lua.matchAll(
      new RegExp(`\\b${name}(?:\\[[^\\]]*\\]|\\.\\w+)?\\s*=\\s*([^\\n]+)`, "g"),
    ))
      if (!assigned[1]!.startsWith("=") && builds(assigned[1]!.trim()))
        problems.push(`${name} is assigned a built key: ${assigned[1]!.trim()}`);
  return problems;
};

const allScripts = () =>
  // The store's folders by capability (payments/, sign-in/, quota/...) hold scripts too.
  (readdirSync(DIR, { recursive: true }) as string[])
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) => scriptsOf(readFileSync(join(DIR, file), "utf8")).map((lua) => ({ file, lua })));

describe("the Redis store's Lua scripts", () => {
  test("every script's keys are passed as KEYS: none is built inside a script", () => {
    const scripts = allScripts();
    // The store's scripts are found (quota, x402, sessions, links, ceilings, caches...).
    expect(new Set(scripts.map(({ file }) => file)).size).toBeGreaterThanOrEqual(18);
    expect(undeclaredKeys(scripts.map(({ lua }) => lua).join("\n"))).toEqual([]);
  });

  test("the checker catches the ways the scripts of before built keys", () => {
    // payer-view.ts and the link lookup: a prefix from ARGV joined to the linked wallet.
    expect(
      undeclaredKeys("local w = redis.call('HGET', KEYS[2], 'w')\nreturn redis.call('GET', ARGV[1] .. w)"),
    ).toEqual(["'GET' builds its key: ARGV[1] .. w"]);
    // session-lua.ts: a function given a built key, and a local holding one.
    expect(
      undeclaredKeys(
        [
          "local function holds(quotaKey)",
          "  return redis.call('HGET', quotaKey, 'credits')",
          "end",
          "local key = sessionPrefix .. hash",
          "redis.call('GET', key)",
          "holds(quotaPrefix .. wallet)",
        ].join("\n"),
      ),
    ).toEqual([
      "holds is given a built key: quotaPrefix .. wallet",
      "key is assigned a built key: sessionPrefix .. hash",
    ]);
    // trim-index-lua.ts: names read from an index deleted inside the script.
    expect(undeclaredKeys("redis.call('DEL', unpack(oldest))")).toEqual([
      "'DEL' builds its key: unpack(oldest)",
    ]);
  });
});
