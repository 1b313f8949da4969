/** The bench side of heap-probe.ts (and its Deno twin): the commands that preload it, and a reading on demand. */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BUN_ENTRY, DENO_ENTRY } from "../../test/support/service-process.ts";
import type { HeapProbe } from "./heap-probe.ts";

/** `bun --preload heap-probe.ts dev/demo/main.ts`. */
export const PROBED_ENTRY: ReadonlyArray<string> = [
  BUN_ENTRY[0]!,
  "--preload",
  join(import.meta.dir, "heap-probe.ts"),
  ...BUN_ENTRY.slice(1),
];

/** The same with Bun's `--smol` (a smaller heap, collected more often). */
export const PROBED_SMOL_ENTRY: ReadonlyArray<string> = [
  PROBED_ENTRY[0]!,
  "--smol",
  ...PROBED_ENTRY.slice(1),
];

const V8_FLAGS = "--v8-flags=";
/**
 * `npm run start:deno`'s command with heap-probe-deno.ts preloaded and V8's gc() exposed to it
 * (added to the entry's own V8 flags, which Deno takes once), plus `extraV8Flags` to try.
 */
export const probedDenoEntry = (extraV8Flags: ReadonlyArray<string> = []): ReadonlyArray<string> => {
  const own = DENO_ENTRY.find((word) => word.startsWith(V8_FLAGS));
  const flags = [
    ...(own === undefined ? [] : own.slice(V8_FLAGS.length).split(",")),
    "--expose-gc",
    ...extraV8Flags,
  ];
  return [
    ...DENO_ENTRY.slice(0, -1).filter((word) => word !== own),
    `${V8_FLAGS}${flags.join(",")}`,
    "--preload",
    join(import.meta.dir, "heap-probe-deno.ts"),
    DENO_ENTRY.at(-1)!,
  ];
};

/** Asks the process (started with a probed entry and HEAP_PROBE_FILE=`file`) for a reading after a full GC. */
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
