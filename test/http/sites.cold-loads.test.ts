/**
 * The budget of cold index loads (cold-index-loads, core/ceilings/ceilings.ts): on a service
 * hosting sites, each site's index loads on its first question, and past the instance's budget
 * for the minute a question needing a load is answered 503 COLD_INDEX_LOADS_LIMITED with
 * Retry-After, nothing charged; a site whose index is loaded still answers; the next minute
 * loads again. /metrics counts the loads and the refusals by the ceiling's name. The clock is
 * the test's.
 */
import { describe, expect, test } from "bun:test";
import { METRICS, metricsSurface, QUESTIONS, sampleSites, useSitesApp } from "../support/hosted-sites.ts";
import type { SitesService } from "../support/sites-app.ts";

const MINUTE = 60_000;
// 10 s into a minute: the refusal frees in 50 s.
let clock = Math.floor(Date.now() / MINUTE) * MINUTE + 10_000;

const samples = sampleSites(["alpha", "beta", "gamma"], () => ({ freeQueries: 3 }));
const ceilings = { "cold-index-loads": 2 };

let service: SitesService;
useSitesApp(
  () => ({ ...samples, surface: metricsSurface, ceilings, now: () => clock }),
  (built) => {
    service = built;
  },
);

const ask = async (site: "alpha" | "beta" | "gamma", from = "198.51.100.70") => {
  const response = await service.ask(`/sites/${site}/api/chat`, QUESTIONS[site], from);
  return { response, body: (await response.json()) as Record<string, unknown> };
};

describe("cold index loads", () => {
  test("past the minute's budget a question needing a load is 503 with Retry-After; loaded sites still answer", async () => {
    expect((await ask("alpha")).response.status).toBe(200);
    expect((await ask("beta")).response.status).toBe(200);
    const refused = await ask("gamma");
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get("Retry-After")).toBe("50");
    expect(refused.body).toMatchObject({ success: false, code: "COLD_INDEX_LOADS_LIMITED" });
    // Loaded indexes are never refused, from any address.
    expect((await ask("alpha", "198.51.100.71")).response.status).toBe(200);
    expect((await ask("beta")).response.status).toBe(200);
    const metrics = await service.call("/metrics", { headers: { Authorization: `Bearer ${METRICS}` } });
    const counted = await metrics.text();
    expect(counted).toContain('ceiling_refusals_total{ceiling="cold-index-loads"} 1');
    // The two loads admitted (alpha's and beta's), none for the refused one.
    expect(counted).toMatch(/^site_index_loads_total 2$/m);
    // The next minute loads again, and the refused question cost nothing: 3 free, one used now.
    clock += 50_000;
    const answered = await ask("gamma");
    expect(answered.response.status).toBe(200);
    expect((answered.body.rateLimit as Record<string, unknown>).remaining).toBe(2);
  });
});
