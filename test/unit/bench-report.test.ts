import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { updateBenchmarks } from "../../dev/bench/render.ts";
import type { Section } from "../../dev/bench/report.ts";
import { REPO_ROOT } from "../support/service-process.ts";

const section = (title: string, met: boolean, at = "2026-01-02T03:04:05.000Z"): Section => ({
  title,
  method: `How ${title} is measured.`,
  figures: [
    { measure: `${title} req/s`, value: "10", baseline: "20", comparison: "0.50x", goal: ">= 0.75x", met },
  ],
  at,
});
const ORDER = ["status", "load", "soak"];
/** The report after a run that recorded only `key`. */
const afterRun = (existing: string, key: string, title: string, at: string) =>
  updateBenchmarks(existing, { [key]: section(title, true, at) }, ORDER, REPO_ROOT);
const headings = (markdown: string): string[] => [...(markdown.match(/^## .*$/gm) ?? [])];

describe("BENCHMARKS.md: a partial run replaces only its own sections", () => {
  const full = updateBenchmarks(
    "",
    { status: section("Status", false), load: section("Load", true) },
    ORDER,
    REPO_ROOT,
  );

  test("a first run writes every section in order, with the goals counted", () => {
    expect(headings(full)).toEqual(["## Status", "## Load"]);
    expect(full).toContain("Goals met: 1 of 2.");
  });

  test("a soak-only run adds its section and keeps the others word for word", () => {
    const after = afterRun(full, "soak", "Soak", "2026-02-03T04:05:06.000Z");
    expect(headings(after)).toEqual(["## Status", "## Load", "## Soak"]);
    const body = (markdown: string) => markdown.slice(markdown.indexOf("<!-- bench:status"));
    expect(body(after).startsWith(body(full).trimEnd())).toBe(true);
    expect(after).toContain("Goals met: 2 of 3.");
    expect(after).toContain("Run 2026-02-03 04:05 UTC.");
  });

  test("a re-run section replaces its old text, and only it", () => {
    const after = afterRun(full, "status", "Status", "2026-03-04T05:06:07.000Z");
    expect(headings(after)).toEqual(["## Status", "## Load"]);
    expect(after).not.toContain(
      "Run 2026-01-02 03:04 UTC.\n\n| measure | value | baseline (same run) | comparison | goal | |\n|---|---|---|---|---|---|\n| Status",
    );
    expect(after).toContain("Goals met: 2 of 2.");
    expect(after.match(/<!-- bench:status -->/g)?.length).toBe(1);
  });

  test("the committed report keeps all its sections when one is added", () => {
    const committed = readFileSync(join(REPO_ROOT, "BENCHMARKS.md"), "utf8");
    const after = afterRun(committed, "soak-test", "Soak test", "2026-01-02T03:04:05.000Z");
    expect(headings(committed).length).toBeGreaterThan(5);
    expect(headings(after).sort()).toEqual([...headings(committed), "## Soak test"].sort());
  });
});
