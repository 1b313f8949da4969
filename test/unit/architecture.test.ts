/**
 * The map of rooms in docs/architecture.md, checked against the imports (type-only ones
 * included): each room imports only the rooms the map allows, nothing the service runs imports
 * the tooling (dev/, examples/, test/), no adapter imports another's files, and no file is part
 * of an import cycle. A new import that crosses a forbidden boundary fails here.
 *
 * And the map of capabilities: a capability has one name in every layer (sign-in is `sign-in`
 * in core, in each store and in src alike), each of its folders opens with a note of what is
 * where whose paths exist, the settings live in core/config/, and no two files of the product
 * share a name.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type ImportEdge, importCycles, importsOf, sourceFiles } from "../support/import-graph.ts";
import { REPO_ROOT } from "../support/service-process.ts";

/** A room: where its files are, and the rooms it may import besides itself. */
interface Room {
  readonly name: string;
  readonly holds: (file: string) => boolean;
  readonly mayImport: ReadonlyArray<string>;
}

const under =
  (...folders: ReadonlyArray<string>) =>
  (file: string) =>
    folders.some((folder) => file.startsWith(`${folder}/`));
const oneOf =
  (...files: ReadonlyArray<string>) =>
  (file: string) =>
    files.includes(file);

/** The order of docs/architecture.md's map: the first room that holds a file is its room. */
const ROOMS: ReadonlyArray<Room> = [
  { name: "core", holds: under("core"), mayImport: [] },
  { name: "adapters/shared", holds: under("adapters/shared"), mayImport: ["core"] },
  // Each adapter folder is a room of its own (see ownAdapter): an adapter never imports another's files.
  { name: "adapter", holds: under("adapters"), mayImport: ["core", "adapters/shared"] },
  { name: "observability", holds: under("src/observability"), mayImport: ["core"] },
  { name: "hono-kit", holds: under("src/hono-kit"), mayImport: ["core", "observability"] },
  { name: "solana", holds: under("src/solana"), mayImport: ["core"] },
  {
    name: "payments",
    holds: under("src/payments"),
    mayImport: ["core", "observability", "hono-kit", "solana"],
  },
  // Wallet sign-in's service side: it renders its own refusals, so it never needs the edge.
  { name: "sign-in", holds: under("src/sign-in"), mayImport: ["core", "hono-kit", "payments"] },
  { name: "bundles", holds: under("src/bundles"), mayImport: [] },
  {
    name: "browser code",
    holds: under("src/browser", "src/widget", "src/console/browser"),
    mayImport: ["core", "solana"],
  },
  {
    name: "http",
    holds: under("src/http"),
    mayImport: ["core", "observability", "hono-kit", "payments", "sign-in", "bundles", "web"],
  },
  { name: "web", holds: under("src/web"), mayImport: ["core", "hono-kit", "bundles"] },
  {
    name: "console",
    holds: under("src/console"),
    mayImport: ["core", "observability", "hono-kit", "http", "web", "bundles"],
  },
  {
    name: "mcp",
    holds: under("src/mcp"),
    mayImport: ["core", "observability", "hono-kit", "payments", "sign-in"],
  },
  {
    name: "programs",
    holds: (file) =>
      under("src/runtime", "src/cli", "src/sites", "src/docs-sync", "src/routers")(file) ||
      oneOf("src/app.ts", "src/main.ts", "src/deno.ts")(file),
    mayImport: [
      "core",
      "adapters/shared",
      "adapter",
      "observability",
      "hono-kit",
      "solana",
      "payments",
      "sign-in",
      "bundles",
      "http",
      "web",
      "console",
      "mcp",
    ],
  },
];
const PRODUCT = ["core", "adapters", "src"];
const TOOLING = ["dev", "examples", "test"];

const roomOf = (file: string): Room | undefined => ROOMS.find((room) => room.holds(file));
/** "adapters/store-redis" for any file of that adapter. */
const adapterFolder = (file: string) => file.split("/").slice(0, 2).join("/");

/** Why `edge` breaks the map, or undefined when it does not. */
const violation = (edge: ImportEdge): string | undefined => {
  if (!edge.relative) return undefined;
  const from = roomOf(edge.from);
  if (from === undefined) return `${edge.from} is in no room of the map`;
  if (under(...TOOLING)(edge.to)) return `${edge.from} (${from.name}) imports tooling: ${edge.to}`;
  const to = roomOf(edge.to);
  if (to === undefined) return `${edge.from} imports ${edge.to}, which is in no room of the map`;
  if (from.name === "adapter" && to.name === "adapter" && adapterFolder(edge.from) !== adapterFolder(edge.to))
    return `${edge.from} imports another adapter's file: ${edge.to}`;
  if (to === from || from.mayImport.includes(to.name)) return undefined;
  return `${edge.from} (${from.name}) may not import ${edge.to} (${to.name})`;
};

const productEdges = sourceFiles(REPO_ROOT, PRODUCT).flatMap((file) => importsOf(REPO_ROOT, file));

describe("the rooms of docs/architecture.md", () => {
  test("every import of the product keeps to the map", () => {
    expect(productEdges.length).toBeGreaterThan(1000);
    expect(productEdges.flatMap((edge) => violation(edge) ?? [])).toEqual([]);
  });

  test("core imports nothing but effect and core (the purity check looks at its globals too)", () => {
    const outside = productEdges.filter(
      (edge) =>
        edge.from.startsWith("core/") &&
        !edge.relative &&
        edge.to !== "effect" &&
        !edge.to.startsWith("effect/"),
    );
    expect(outside).toEqual([]);
  });

  test("the map refuses what it must: the edge reaching an adapter, payments reaching http, the product reaching dev/", () => {
    const refused = (from: string, to: string) => violation({ from, to, relative: true });
    expect(refused("src/http/routes/status.ts", "adapters/store-memory/index.ts")).toContain(
      "may not import",
    );
    expect(refused("src/payments/server/paywall.ts", "adapters/chain-solana/index.ts")).toContain(
      "may not import",
    );
    expect(refused("src/payments/server/dialect.ts", "src/http/error-status.ts")).toContain("may not import");
    expect(refused("src/hono-kit/run-effect.ts", "src/payments/server/dialect.ts")).toContain(
      "may not import",
    );
    expect(refused("src/runtime/resolve-chain.ts", "dev/localnet/index.ts")).toContain("imports tooling");
    expect(refused("src/widget/pay/transfer.ts", "dev/localnet/client.ts")).toContain("imports tooling");
    expect(refused("src/widget/chat-api.ts", "src/http/schemas/responses.ts")).toContain("may not import");
    expect(refused("src/sign-in/wallet-sign-in.ts", "src/http/error-response.ts")).toContain(
      "may not import",
    );
    expect(refused("src/payments/server/dialect.ts", "src/sign-in/session-token.ts")).toContain(
      "may not import",
    );
    expect(refused("src/http/routes/sign-in-routes.ts", "src/sign-in/wallet-sign-in.ts")).toBeUndefined();
    expect(refused("src/http/routes/chat.ts", "src/console/routes/admin-gate.ts")).toContain(
      "may not import",
    );
    expect(refused("adapters/store-redis/redis-store.ts", "adapters/store-memory/memory-state.ts")).toContain(
      "another adapter",
    );
    expect(refused("core/quota.ts", "src/hono-kit/run-effect.ts")).toContain("may not import");
    expect(refused("src/runtime/app-layer.ts", "adapters/store-memory/index.ts")).toBeUndefined();
  });

  test("no import cycle anywhere, type-only imports included", () => {
    const files = sourceFiles(REPO_ROOT, [...PRODUCT, ...TOOLING]);
    expect(importCycles(REPO_ROOT, files)).toEqual([]);
    // The search finds one when there is one, through a type-only import too.
    const folder = mkdtempSync(join(tmpdir(), "cycle-"));
    writeFileSync(join(folder, "a.ts"), 'import type { B } from "./b.ts";\nexport type A = B;\n');
    writeFileSync(join(folder, "b.ts"), 'import { type A } from "./a.ts";\nexport type B = { a?: A };\n');
    writeFileSync(join(folder, "c.ts"), 'import type { A } from "./a.ts";\nexport type C = A;\n');
    expect(importCycles(folder, ["a.ts", "b.ts", "c.ts"])).toEqual([["a.ts", "b.ts"]]);
    rmSync(folder, { recursive: true });
  });
});

/**
 * Each capability and its folders, one per layer where it has files; the first folder's note is
 * the map of the capability. A capability's name is its folder's name in every layer.
 */
const CAPABILITIES: Readonly<Record<string, ReadonlyArray<string>>> = {
  "sign-in": [
    "core/sign-in",
    "adapters/store-memory/sign-in",
    "adapters/store-redis/sign-in",
    "src/sign-in",
    "src/widget/sign-in",
  ],
  payments: [
    "core/payments",
    "adapters/store-memory/payments",
    "adapters/store-redis/payments",
    "src/payments",
  ],
  answers: ["core/answers", "adapters/store-memory/answers", "adapters/store-redis/answers"],
  insights: ["core/insights", "adapters/store-memory/insights", "adapters/store-redis/insights"],
  "docs-sync": ["src/docs-sync", "adapters/store-memory/docs-sync", "adapters/store-redis/docs-sync"],
  ceilings: ["core/ceilings", "adapters/store-memory/ceilings", "adapters/store-redis/ceilings"],
  quota: ["adapters/store-redis/quota"],
  sites: ["src/sites", "adapters/store-redis/sites"],
  config: ["core/config"],
};

/** Every folder under the product's roots, repository-relative. */
const productFolders = (): ReadonlyArray<string> => {
  const walk = (folder: string): ReadonlyArray<string> =>
    readdirSync(join(REPO_ROOT, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "node_modules")
      .flatMap((entry) => [`${folder}/${entry.name}`, ...walk(`${folder}/${entry.name}`)]);
  return PRODUCT.flatMap(walk);
};

/** The paths a note names in backticks: repository paths, and file names of its own folder. */
const namedPaths = (folder: string, note: string): ReadonlyArray<string> =>
  [...note.matchAll(/`([^`\s]+)`/g)].flatMap(([, name]) => {
    if (name === undefined) return [];
    if (/^(core|adapters|src|test|dev|docs|examples)\//.test(name)) return [name.replace(/\/$/, "")];
    if (/^[\w.-]+\.ts$/.test(name) || /^[\w-]+\/$/.test(name))
      return [`${folder}/${name.replace(/\/$/, "")}`];
    return [];
  });

describe("the capabilities of the product, by folder", () => {
  test("no two files of core/, adapters/ and src/ share a name", () => {
    // The one exception: an adapter folder is a package, and index.ts is its door, the file the
    // program imports it by; the folder's name (adapters/store-redis) tells the doors apart.
    const door = (file: string) => /^adapters\/[^/]+\/index\.ts$/.test(file);
    const byName = new Map<string, string[]>();
    for (const file of sourceFiles(REPO_ROOT, PRODUCT).filter((file) => !door(file)))
      byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
    expect([...byName.values()].filter((files) => files.length > 1)).toEqual([]);
  });

  test("each capability has one name in every layer: no other folder carries it", () => {
    const named = productFolders().filter((folder) => basename(folder) in CAPABILITIES);
    const listed = Object.values(CAPABILITIES).flat();
    expect(named.filter((folder) => !listed.includes(folder))).toEqual([]);
    expect(listed.filter((folder) => !existsSync(join(REPO_ROOT, folder)))).toEqual([]);
    for (const [name, folders] of Object.entries(CAPABILITIES))
      expect(folders.filter((folder) => basename(folder) !== name)).toEqual([]);
  });

  test("each capability folder opens with a note of what is where, and the note's paths exist", () => {
    const problems = Object.entries(CAPABILITIES).flatMap(([name, folders]) =>
      folders.flatMap((folder) => {
        const path = join(REPO_ROOT, folder, "README.md");
        if (!existsSync(path)) return [`${folder} has no README.md`];
        const note = readFileSync(path, "utf8");
        const missing = namedPaths(folder, note).filter((named) => !existsSync(join(REPO_ROOT, named)));
        const others = folders.filter((other) => other !== folder && !note.includes(`${other}/`));
        return [
          ...(note.startsWith(`# ${name}`) ? [] : [`${folder}/README.md does not open with "# ${name}"`]),
          ...missing.map((named) => `${folder}/README.md names ${named}, which does not exist`),
          // The first folder's note is the capability's map: it names the others.
          ...(folder === folders[0]
            ? others.map((other) => `${folder}/README.md does not name ${other}/`)
            : []),
        ];
      }),
    );
    expect(problems).toEqual([]);
  });

  test("the settings live in core/config/", () => {
    const strays = sourceFiles(REPO_ROOT, ["core"]).filter(
      (file) => basename(file).startsWith("config") && !file.startsWith("core/config/"),
    );
    expect(strays).toEqual([]);
  });
});
