/**
 * The map of rooms in docs/architecture.md, checked against the imports (type-only ones
 * included): each room imports only the rooms the map allows, nothing the service runs imports
 * the tooling (dev/, examples/, test/), no adapter imports another's files, and no file is part
 * of an import cycle. A new import that crosses a forbidden boundary fails here.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  { name: "bundles", holds: under("src/bundles"), mayImport: [] },
  {
    name: "browser code",
    holds: under("src/browser", "src/widget", "src/console/browser"),
    mayImport: ["core", "solana"],
  },
  {
    name: "http",
    holds: under("src/http"),
    mayImport: ["core", "observability", "hono-kit", "payments", "bundles", "web"],
  },
  { name: "web", holds: under("src/web"), mayImport: ["core", "hono-kit", "bundles"] },
  {
    name: "console",
    holds: under("src/console"),
    mayImport: ["core", "observability", "hono-kit", "http", "web", "bundles"],
  },
  { name: "mcp", holds: under("src/mcp"), mayImport: ["core", "observability", "hono-kit", "payments"] },
  {
    name: "programs",
    holds: (file) =>
      under("src/runtime", "src/cli", "src/sites", "src/routers")(file) ||
      oneOf("src/app.ts", "src/main.ts", "src/deno.ts")(file),
    mayImport: [
      "core",
      "adapters/shared",
      "adapter",
      "observability",
      "hono-kit",
      "solana",
      "payments",
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
    expect(refused("src/widget/api.ts", "src/http/schemas/responses.ts")).toContain("may not import");
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
