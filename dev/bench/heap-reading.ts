/** The bench side of heap-probe.ts: the command that preloads it, and a reading on demand. */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BUN_ENTRY } from "../../test/support/service-process.ts";
import type { HeapProbe } from "./heap-probe.ts";

/** `bun --preload heap-probe.ts src/main.ts`. */
export const PROBED_ENTRY: ReadonlyArray<string> = [
  BUN_ENTRY[0]!,
  "--preload",
  join(import.meta.dir, "heap-probe.ts"),
  ...BUN_ENTRY.slice(1),
];

/** Asks the process (started with PROBED_ENTRY and HEAP_PROBE_FILE=`file`) for a reading after a full GC. */
export const readHeap = async (pid: number, file: string): Promise<HeapProbe> => {
  rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  const deadline = performance.now() + 30_000;
  while (!existsSync(file)) {
    if (performance.now() > deadline) throw new Error(`no heap reading from process ${pid}`);
    await Bun.sleep(50);
  }
  return JSON.parse(readFileSync(file, "utf8")) as HeapProbe;
};
