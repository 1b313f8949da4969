/**
 * `npm run bench [-- name...]`: the benchmark scripts in turn (each prints its figures and
 * records its section), then the sections this run recorded replace theirs in BENCHMARKS.md
 * (the others are kept as they are). The soak test (10 minutes after its warm-up) runs only
 * when named: `npm run bench -- soak`, and so do the stranger flood (`npm run bench -- strangers`) and the
 * Redis topologies (`npm run bench -- redis-topologies`).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeBenchmarkSummary } from "./readme-summary.ts";
import { updateBenchmarks } from "./render.ts";
import { readResults } from "./report.ts";

const ROOT = join(import.meta.dir, "..", "..");
/** Script, and whether it runs when no name is given. */
const SCRIPTS: ReadonlyArray<readonly [string, boolean]> = [
  ["status-bench.ts", true],
  ["payment-bench.ts", true],
  ["x402-bench.ts", true],
  ["x402-v2-bench.ts", true],
  ["chat-bench.ts", true],
  ["mcp-bench.ts", true],
  ["startup-bench.ts", true],
  ["load-bench.ts", true],
  ["identities-bench.ts", true],
  ["retrieval-quality.ts", true],
  ["crawl-bench.ts", true],
  ["sites-bench.ts", true],
  ["sites-service-bench.ts", true],
  ["soak-bench.ts", false],
  ["strangers-bench.ts", false],
  ["redis-topologies-bench.ts", false],
];
/** Section keys in the order BENCHMARKS.md shows them. */
const ORDER = [
  "status",
  "payment-info",
  "payment",
  "x402",
  "chat",
  "chat-postgres",
  "mcp",
  "startup",
  "load",
  "redis-topologies",
  "identities",
  "retrieval",
  "crawl",
  "sites",
  "sites-service",
  "soak",
  "soak-deno",
  "soak-bun-smol",
  "strangers",
];

const only = process.argv.slice(2);
const started = new Date().toISOString();
for (const [script, byDefault] of SCRIPTS) {
  if (only.length === 0 ? !byDefault : !only.some((name) => script.startsWith(name))) continue;
  if (!(await Bun.file(join(import.meta.dir, script)).exists())) continue;
  console.log(`\n=== ${script} ===`);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, script)], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) process.exitCode = 1;
}
const file = join(ROOT, "BENCHMARKS.md");
const fresh = Object.fromEntries(
  Object.entries(readResults(join(ROOT, ".data/bench-results.json"))).filter(
    ([, section]) => (section.at ?? "") >= started,
  ),
);
writeFileSync(file, updateBenchmarks(existsSync(file) ? readFileSync(file, "utf8") : "", fresh, ORDER, ROOT));
// README's summary quotes BENCHMARKS.md's figures: rewritten with them, so the two agree.
writeBenchmarkSummary();
console.log(
  `\nwrote BENCHMARKS.md and README's summary (re-run: ${Object.keys(fresh).join(", ") || "none"}; other sections kept)`,
);
