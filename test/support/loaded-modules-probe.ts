/**
 * Preloaded into a service process (`bun --preload <this file> src/main.ts`): as the process
 * exits, it writes one JSON line saying whether LiteSVM was ever loaded, so a test can tell
 * which start paths load it. LiteSVM and its native binding are CommonJS: Bun lists them in
 * require.cache however they were imported.
 */
import { writeSync } from "node:fs";

process.on("exit", () => {
  const litesvm = Object.keys(require.cache).some((path) => path.includes("/node_modules/litesvm"));
  writeSync(1, `${JSON.stringify({ probe: "loaded-modules", litesvm })}\n`);
});
