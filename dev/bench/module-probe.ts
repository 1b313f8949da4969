/**
 * The child of module-cost.ts, on Bun or on Deno: imports the modules named in its arguments,
 * collects fully, then prints one JSON line: RSS and the live heap, bytes. Loading is all it
 * does (an entry module's top level only defines things; nothing is served).
 */
export {};

interface DenoApi {
  readonly args: ReadonlyArray<string>;
  readonly memoryUsage: () => { rss: number; heapUsed: number };
}
const deno = (globalThis as unknown as { Deno?: DenoApi }).Deno;
const specifiers = deno === undefined ? process.argv.slice(2) : deno.args;
for (const specifier of specifiers) await import(specifier);

/** A full collection: Bun's, or V8's `gc()` (the parent passes --expose-gc to Deno). */
const collect = async () => {
  if (deno === undefined) Bun.gc(true);
  else (globalThis as unknown as { gc: () => void }).gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
};
for (let i = 0; i < 3; i++) await collect();
const reading =
  deno === undefined
    ? { rss: process.memoryUsage().rss, heap: (await import("bun:jsc")).heapStats().heapSize }
    : { rss: deno.memoryUsage().rss, heap: deno.memoryUsage().heapUsed };
console.log(JSON.stringify(reading));
