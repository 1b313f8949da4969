/**
 * Benchmark results as data, so `npm run bench` can write BENCHMARKS.md: each script records
 * its section (figures beside the baseline measured in the same run, and the goal) in
 * .data/bench-results.json, keyed by section, and run-all.ts puts the sections its run
 * recorded into BENCHMARKS.md, keeping the others there with their own dates.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface Figure {
  /** What was measured, e.g. "GET /api/status req/s". */
  readonly measure: string;
  readonly value: string;
  /** The baseline it is compared with, measured in the same run. */
  readonly baseline?: string;
  /** value / baseline, or the difference, as the goal states it. */
  readonly comparison?: string;
  readonly goal?: string;
  /** Whether the goal is met (absent: no goal). */
  readonly met?: boolean;
}

export interface Section {
  readonly title: string;
  /** How it was measured, in one or two sentences. */
  readonly method: string;
  readonly figures: ReadonlyArray<Figure>;
  readonly notes?: ReadonlyArray<string>;
  /** ISO time of the run; set by `record`. */
  readonly at?: string;
}

export const RESULTS_FILE = ".data/bench-results.json";

/** All sections recorded so far, by key. */
export const readResults = (file = RESULTS_FILE): Record<string, Section> =>
  existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Section>) : {};

/** Records (replaces) one section of the results. */
export const record = (key: string, section: Section, file = RESULTS_FILE): void => {
  const results = readResults(file);
  results[key] = { ...section, at: new Date().toISOString() };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
};

/** "0.83x" */
export const ratio = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}x`;

/** Latency percentiles of a measured path and of its baseline (stats.ts `summary`). */
interface Percentiles {
  readonly p50: number;
  readonly p99: number;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** p99 and p50 of `measured` beside the raw RPC call it makes, with the overhead goal on p99. */
export const overheadFigures = (
  what: string,
  measured: Percentiles,
  raw: Percentiles,
  goalMs: number,
): Figure[] => [
  {
    measure: `${what} p99`,
    value: ms(measured.p99),
    baseline: `${ms(raw.p99)} (raw getTransaction)`,
    comparison: `+${ms(measured.p99 - raw.p99)}`,
    goal: `<= +${goalMs} ms`,
    met: measured.p99 - raw.p99 <= goalMs,
  },
  {
    measure: `${what} p50`,
    value: ms(measured.p50),
    baseline: ms(raw.p50),
    comparison: `+${ms(measured.p50 - raw.p50)}`,
  },
];
