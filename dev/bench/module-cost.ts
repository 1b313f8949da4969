/**
 * What loading code costs, before any request: RSS and live heap after a full collection of a
 * process that only imports a set of modules, on Bun and on Deno (npm run start:deno's command
 * and its MALLOC_ARENA_MAX), median of a few fresh processes each. The sets: nothing (the
 * runtime alone), the service's whole module graph (its Bun or Deno entry's module, nothing
 * started), Effect's index against the modules the product uses, the MCP SDK.
 *
 *   bun dev/bench/module-cost.ts [processes per figure, default 3]
 *
 * Why: on Deno the service's code was half its RSS before any load (docs/performance.md,
 * "What loading code costs"). Prints a table; records nothing.
 */
import { join } from "node:path";
import { importsOf, sourceFiles } from "../../test/support/import-graph.ts";
import { DENO_ENTRY, REPO_ROOT } from "../../test/support/service-process.ts";

const RUNS = Number(process.argv[2] ?? 3);
const PROBE = join(import.meta.dir, "module-probe.ts");
const SRC = join(REPO_ROOT, "src");
/** The Effect modules the product imports (core, adapters, src), by path; type-only imports count too. */
const EFFECT_USED = [
  ...new Set(
    sourceFiles(REPO_ROOT, ["core", "adapters", "src"]).flatMap((file) =>
      importsOf(REPO_ROOT, file).flatMap((edge) => (edge.to.startsWith("effect/") ? [edge.to] : [])),
    ),
  ),
].sort();
const MCP_SDK = [
  "@modelcontextprotocol/sdk/server/mcp.js",
  "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
];

const runtimes = {
  Bun: { command: [process.execPath, PROBE], service: join(SRC, "runtime/serve-bun.ts") },
  Deno: {
    // start:deno's words up to its entry, V8's gc() exposed for the probe.
    command: [...DENO_ENTRY.slice(0, -1), "--v8-flags=--expose-gc", PROBE],
    service: join(SRC, "runtime/serve-deno.ts"),
  },
} as const;
if (DENO_ENTRY.some((word) => word.startsWith("--v8-flags=")))
  throw new Error("start:deno has V8 flags: merge them");

const sets = (service: string): ReadonlyArray<readonly [string, ReadonlyArray<string>]> => [
  ["nothing (the runtime)", []],
  ["the service's module graph", [service]],
  ["effect's index", ["effect"]],
  [`the ${EFFECT_USED.length} effect modules used`, EFFECT_USED],
  ["the MCP SDK (server, transport)", MCP_SDK],
];

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

console.log(`| runtime | modules | RSS (MB) | live heap (MB) |\n|---|---|---|---|`);
for (const [name, { command, service }] of Object.entries(runtimes)) {
  for (const [label, specifiers] of sets(service)) {
    const readings: { rss: number; heap: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const child = Bun.spawnSync([...command, ...specifiers], { stderr: "pipe" });
      const line = child.stdout.toString().trim().split("\n").at(-1) ?? "";
      if (child.exitCode !== 0) throw new Error(`${name}, ${label}: ${child.stderr.toString().slice(-500)}`);
      readings.push(JSON.parse(line));
    }
    console.log(
      `| ${name} | ${label} | ${mb(median(readings.map((r) => r.rss)))} | ${mb(median(readings.map((r) => r.heap)))} |`,
    );
  }
}
