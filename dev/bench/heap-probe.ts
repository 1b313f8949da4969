/**
 * Preloaded into the service by the soak bench only (`bun --preload <this file> src/main.ts`),
 * never in production: on SIGUSR2 it runs a full garbage collection and writes the JS heap's
 * live size and object counts to HEAP_PROBE_FILE, so the bench can tell state the service
 * holds from memory the allocator keeps (RSS).
 */

import { heapStats } from "bun:jsc";
import { renameSync, writeFileSync } from "node:fs";

export interface HeapProbe {
  /** Live JS heap after a full GC, bytes. */
  readonly heapSize: number;
  /** Memory the heap's objects hold outside it (array buffers, external strings), bytes. */
  readonly extraMemorySize: number;
  /** Resident set size right after the GC, bytes: what the process still holds once garbage is freed. */
  readonly rss: number;
  readonly objectCount: number;
  /** Live objects per type (Object, Map, string...). */
  readonly types: Readonly<Record<string, number>>;
}

const file = process.env.HEAP_PROBE_FILE;
if (file !== undefined)
  process.on("SIGUSR2", () => {
    Bun.gc(true);
    const stats = heapStats();
    const probe: HeapProbe = {
      heapSize: stats.heapSize,
      extraMemorySize: stats.extraMemorySize,
      rss: process.memoryUsage.rss(),
      objectCount: stats.objectCount,
      types: stats.objectTypeCounts,
    };
    // A V8-format snapshot beside each reading, when asked (a one-off search for what grows).
    const snapshots = process.env.HEAP_SNAPSHOT_DIR;
    if (snapshots !== undefined)
      writeFileSync(`${snapshots}/heap-${Date.now()}.heapsnapshot`, Bun.generateHeapSnapshot("v8"));
    writeFileSync(`${file}.part`, JSON.stringify(probe));
    // Renamed once complete: the bench never reads half a file.
    renameSync(`${file}.part`, file);
  });
