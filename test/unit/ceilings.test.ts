/**
 * The table of ceilings (core/ceilings/ceilings.ts) is the one place they are declared:
 * docs/configuration.md's section between its markers is written from it (npm run
 * docs:ceilings), its settings are read by one function with the usual problems, each name is
 * kebab-case (a metric label), every per-instance ceiling says why, and the values the older
 * readers of the same variables give agree with it until they read it themselves.
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
import { readCeilings } from "../../core/ceilings/read-ceilings.ts";
import { parseConfig } from "../../core/config.ts";
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

test("readCeilings: the defaults, a setting over one, and a bad setting named with its bounds", () => {
  expect(readCeilings({})).toEqual({ limits: DEFAULT_CEILING_LIMITS, problems: [] });
  const set = readCeilings({ FREE_QUESTIONS_ACROSS_SITES: "7", COLD_INDEX_LOADS_PER_MINUTE: "0" });
  expect(set.limits["free-questions-across-sites"]).toBe(7);
  expect(set.limits["cold-index-loads"]).toBe(30);
  expect(set.problems).toEqual([
    "COLD_INDEX_LOADS_PER_MINUTE: must be a whole number from 1 to 100000 (got 0)",
  ]);
  // Through parseConfig, a problem is named once though an older reader reads the same variable.
  const bad = parseConfig({ PROTECTION_RATE_LIMIT: "0" });
  expect(
    Result.isFailure(bad) ? bad.failure.problems.filter((p) => p.startsWith("PROTECTION_RATE_LIMIT")) : [],
  ).toEqual(["PROTECTION_RATE_LIMIT: must be a whole number from 1 to 1000000 (got 0)"]);
});

test("the older readers of the same variables agree with the table", () => {
  const env = {
    PROTECTION_RATE_LIMIT: "11",
    MAX_IN_FLIGHT_PER_CLIENT: "12",
    RPC_RELAY_PER_CLIENT_PER_MINUTE: "13",
    RPC_RELAY_PER_MINUTE: "14",
    CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE: "15",
    CHAIN_LOOKUPS_PER_MINUTE: "16",
    CREDITLESS_SIGN_INS_PER_MINUTE: "17",
    MAX_CREDITLESS_SESSIONS: "18",
    RATE_LIMIT_FREE_QUERIES: "19",
    PAID_DAILY_CAP: "20",
    SITES_MEMORY_MB: "21",
    X402_SPONSOR_LOSS_LAMPORTS_PER_HOUR: "22",
    INSIGHTS_MAX_EVENTS: "230",
    DOCS_MAX_PAGES: "24",
  };
  for (const given of [{}, env]) {
    const config = Result.getOrThrow(parseConfig(given));
    const limits = config.ceilings ?? DEFAULT_CEILING_LIMITS;
    expect({
      "protection-limit": config.protectionRps,
      "in-flight-per-client": config.surface.maxInFlightPerClient,
      "rpc-relay-per-client": config.surface.rpcRelayPerClientPerMinute,
      "rpc-relay": config.surface.rpcRelayPerMinute,
      "chain-lookups-per-client": config.surface.chainLookupsPerClientPerMinute,
      "chain-lookups": config.surface.chainLookupsPerMinute,
      "creditless-sign-ins": config.surface.creditlessSignInsPerMinute,
      "creditless-sessions": config.surface.maxCreditlessSessions,
      "free-questions": config.freeQueries,
      "paid-daily-cap": config.paidDailyCap,
      "sites-memory": config.sitesMemoryMb,
      "sponsor-losses": config.x402.sponsorLossLamportsPerHour,
      "insights-events": config.insights.maxEvents,
      "docs-pages": config.docsSite.maxPages,
    }).toEqual({
      "protection-limit": limits["protection-limit"],
      "in-flight-per-client": limits["in-flight-per-client"],
      "rpc-relay-per-client": limits["rpc-relay-per-client"],
      "rpc-relay": limits["rpc-relay"],
      "chain-lookups-per-client": limits["chain-lookups-per-client"],
      "chain-lookups": limits["chain-lookups"],
      "creditless-sign-ins": limits["creditless-sign-ins"],
      "creditless-sessions": limits["creditless-sessions"],
      "free-questions": limits["free-questions"],
      "paid-daily-cap": limits["paid-daily-cap"],
      "sites-memory": limits["sites-memory"],
      "sponsor-losses": limits["sponsor-losses"],
      "insights-events": limits["insights-events"],
      "docs-pages": limits["docs-pages"],
    });
  }
});
