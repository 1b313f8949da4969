/**
 * The memory part of /metrics: the process's resident set and JS heap, and the entries held by
 * each bounded structure (core/ports/held-sizes.ts), so an operator can tell which one grows
 * (docs/performance.md gives the bytes each entry costs).
 */
import type { HeldSize } from "../../core/ports/held-sizes.ts";

/** Resident set and heap as the runtime reports them (Bun and Deno both have process.memoryUsage). */
export interface MemoryUsage {
  readonly rss: number;
  readonly heapUsed: number;
}

const gauge = (name: string, help: string, lines: ReadonlyArray<string>) =>
  lines.length === 0 ? [] : [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, ...lines];

/** Prometheus text lines (each ending in a newline), to follow the registry's own. */
export const renderMemory = (usage: MemoryUsage, held: ReadonlyArray<HeldSize>): string =>
  [
    ...gauge("process_resident_memory_bytes", "Resident set size of the process", [
      `process_resident_memory_bytes ${usage.rss}`,
    ]),
    ...gauge("js_heap_used_bytes", "JS heap in use (live objects and garbage not yet collected)", [
      `js_heap_used_bytes ${usage.heapUsed}`,
    ]),
    ...gauge(
      "bounded_structure_entries",
      "Entries held by each bounded structure in the process",
      held.map(({ structure, entries }) => `bounded_structure_entries{structure="${structure}"} ${entries}`),
    ),
    ...gauge(
      "bounded_structure_cap",
      "The most entries a bounded structure keeps (those with a fixed cap)",
      held.flatMap(({ structure, cap }) =>
        cap === undefined ? [] : [`bounded_structure_cap{structure="${structure}"} ${cap}`],
      ),
    ),
  ]
    .map((line) => `${line}\n`)
    .join("");
