/**
 * The Deno twin of heap-probe.ts, preloaded by the soak bench only (`deno run --preload <this
 * file> --v8-flags=--expose-gc ...`): on SIGUSR2 a full collection (V8's `gc()`, exposed by
 * that flag), then the live heap and RSS written to HEAP_PROBE_FILE in the same form. V8 gives
 * no object counts by type here, so `types` stays empty.
 */
import type { HeapProbe } from "./heap-probe.ts";

/** The few Deno APIs used here (the project typechecks against Bun's types, not Deno's). */
interface DenoApi {
  readonly env: { readonly get: (name: string) => string | undefined };
  readonly addSignalListener: (signal: "SIGUSR2", handler: () => void) => void;
  readonly memoryUsage: () => { rss: number; heapUsed: number; external: number };
  readonly writeTextFileSync: (path: string, text: string) => void;
  readonly renameSync: (from: string, to: string) => void;
}
const deno = (globalThis as unknown as { Deno: DenoApi }).Deno;
const gc = (globalThis as unknown as { gc: () => void }).gc;

const file = deno.env.get("HEAP_PROBE_FILE");
if (file !== undefined)
  deno.addSignalListener("SIGUSR2", () => {
    gc();
    const usage = deno.memoryUsage();
    const probe: HeapProbe = {
      heapSize: usage.heapUsed,
      extraMemorySize: usage.external,
      rss: usage.rss,
      objectCount: 0,
      types: {},
    };
    deno.writeTextFileSync(`${file}.part`, JSON.stringify(probe));
    // Renamed once complete: the bench never reads half a file.
    deno.renameSync(`${file}.part`, file);
  });
