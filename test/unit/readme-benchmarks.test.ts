/**
 * README's benchmark summary quotes BENCHMARKS.md: it must be what dev/bench/readme-summary.ts
 * writes from the BENCHMARKS.md beside it, so a figure changed in one place fails here until
 * `bun dev/bench/readme-summary.ts` (or `npm run bench`, which runs it) updates the other.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { BENCHMARKS, benchmarkSummary, README, summaryIn } from "../../dev/bench/readme-summary.ts";

const benchmarks = readFileSync(BENCHMARKS, "utf8");

describe("README's benchmark summary", () => {
  test("is the one BENCHMARKS.md gives", () => {
    const summary = summaryIn(readFileSync(README, "utf8"));
    expect(summary, "README lost its bench-summary markers").toBeDefined();
    expect(summary).toBe(benchmarkSummary(benchmarks));
  });

  test("follows a figure of BENCHMARKS.md, and a figure missing from it is an error", () => {
    const changed = benchmarks.replace(/^(\| p95, concurrency 10 \| )[^|]+/m, "$1 999.99 ms ");
    expect(changed).not.toBe(benchmarks);
    expect(benchmarkSummary(changed)).toContain("**999.99");
    const recount = benchmarks.replace(/^Goals met: \d+ of \d+\.$/m, "Goals met: 1 of 99.");
    expect(benchmarkSummary(recount)).toContain("(1 of 99 goals met");
    expect(() => benchmarkSummary(benchmarks.replace(/^\| peak RSS \(sampled\).*$/gm, ""))).toThrow(
      /peak RSS/,
    );
  });
});
