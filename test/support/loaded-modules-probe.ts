/**
 * Preloaded into a service process (`bun --preload <this file> src/main.ts`): as the process
 * exits, it writes one JSON line saying whether LiteSVM and ioredis were ever loaded, so a test
 * can tell which start paths load them. Both are CommonJS: Bun lists them in require.cache
 * however they were imported.
 */
import { writeSync } from "node:fs";

process.on("exit", () => {
  const loaded = (name: string) =>
    Object.keys(require.cache).some((path) => path.includes(`/node_modules/${name}/`));
  writeSync(
    1,
    `${JSON.stringify({ probe: "loaded-modules", litesvm: loaded("litesvm"), ioredis: loaded("ioredis") })}\n`,
  );
});
