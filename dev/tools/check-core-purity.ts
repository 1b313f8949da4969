/**
 * Build check: core/ stays pure. It may import only `effect` (and its subpaths) and other
 * core files, and may not reach for the process, the runtime, the network, the clock,
 * randomness or timers. Exits non-zero listing every offence.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..", "core");
const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bprocess\s*\./, "process"],
  [/\bBun\s*\./, "Bun"],
  [/\bDeno\s*\./, "Deno"],
  [/\bfetch\s*\(/, "fetch"],
  [/\bDate\.now\s*\(/, "Date.now"],
  [/\bnew Date\s*\(\s*\)/, "new Date() (the current time)"],
  [/\bMath\.random\s*\(/, "Math.random"],
  [/\b(setTimeout|setInterval|setImmediate|queueMicrotask)\s*\(/, "timers"],
  [/\brequire\s*\(/, "require"],
];
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/g;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });

const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

const coreFiles = files(ROOT);
const offences = coreFiles.flatMap((file) => {
  const source = stripComments(readFileSync(file, "utf8"));
  const name = relative(join(ROOT, ".."), file);
  const imports = [...source.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? "");
  const badImports = imports
    .filter(
      (spec) =>
        !(spec === "effect" || spec.startsWith("effect/") || spec.startsWith("./") || spec.startsWith("../")),
    )
    .map((spec) => `${name}: imports "${spec}"`);
  const escapes = imports
    .filter((spec) => spec.startsWith("../") && !join(file, "..", spec).startsWith(ROOT))
    .map((spec) => `${name}: imports "${spec}" outside core/`);
  const uses = FORBIDDEN.filter(([pattern]) => pattern.test(source)).map(
    ([, what]) => `${name}: uses ${what}`,
  );
  return [...badImports, ...escapes, ...uses];
});

if (offences.length > 0) {
  console.error(
    `core/ must stay pure (only "effect" imports, no IO, clock, randomness or timers):\n${offences.join("\n")}`,
  );
  process.exit(1);
}
console.log(`core/ purity: ${coreFiles.length} files checked, all pure`);
