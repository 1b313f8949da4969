/**
 * The table of ceilings (core/ceilings/ceilings.ts) is the one place they are declared:
 * docs/configuration.md's section between its markers is written from it (npm run
 * docs:ceilings), its settings are read with the service's (one Schema) with the usual
 * problems, each name is kebab-case (a metric label), and every per-instance ceiling says why.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as Result from "effect/Result";
import {
  CEILING_NAMES,
  CEILINGS,
  type CeilingSpec,
  DEFAULT_CEILING_LIMITS,
} from "../../core/ceilings/ceilings.ts";
import { ceilingsSection } from "../../core/ceilings/ceilings-doc.ts";
import { parseConfig } from "../../core/config/config.ts";
import { REPO_ROOT } from "../support/service-process.ts";

test("docs/configuration.md holds the table of ceilings as the table writes it", () => {
  const doc = readFileSync(join(REPO_ROOT, "docs", "configuration.md"), "utf8");
  expect(doc).toContain(ceilingsSection());
});

test("each ceiling: a kebab-case name, a default within its bounds, a reason when per instance", () => {
  for (const name of CEILING_NAMES) {
    const spec: CeilingSpec = CEILINGS[name];
    expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(spec.limit.default).toBeGreaterThanOrEqual(spec.limit.min);
    expect(spec.limit.default).toBeLessThanOrEqual(spec.limit.max);
    expect([name, spec.scope === "instance" ? (spec.instanceReason ?? "").length > 0 : true]).toEqual([
      name,
      true,
    ]);
  }
});

test("the ceilings' settings, read with the service's: the defaults, a setting over one, a bad setting named once", () => {
  expect(Result.getOrThrow(parseConfig({})).ceilings).toEqual(DEFAULT_CEILING_LIMITS);
  const set = Result.getOrThrow(
    parseConfig({ FREE_QUESTIONS_ACROSS_SITES: "7", RATE_LIMIT_FREE_QUERIES: "2" }),
  );
  expect([set.ceilings["free-questions-across-sites"], set.ceilings["cold-index-loads"]]).toEqual([7, 30]);
  // The default site's free questions are the free-questions ceiling's setting.
  expect(set.freeQueries).toBe(2);
  const bad = parseConfig({ COLD_INDEX_LOADS_PER_MINUTE: "0", PROTECTION_RATE_LIMIT: "0" });
  expect(Result.isFailure(bad) ? bad.failure.problems : []).toEqual([
    "PROTECTION_RATE_LIMIT: must be a whole number from 1 to 1000000 (got 0)",
    "COLD_INDEX_LOADS_PER_MINUTE: must be a whole number from 1 to 100000 (got 0)",
  ]);
});
