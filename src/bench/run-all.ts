/** `npm run bench`: every benchmark script in turn (each prints its own figures). */
import { join } from "node:path";

const SCRIPTS = [
  "status-bench.ts",
  "payment-bench.ts",
  "x402-bench.ts",
  "chat-bench.ts",
  "retrieval-quality.ts",
];
const only = process.argv.slice(2);
for (const script of SCRIPTS.filter((s) => only.length === 0 || only.some((o) => s.startsWith(o)))) {
  if (!(await Bun.file(join(import.meta.dir, script)).exists())) continue;
  console.log(`\n=== ${script} ===`);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, script)], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) process.exitCode = 1;
}
