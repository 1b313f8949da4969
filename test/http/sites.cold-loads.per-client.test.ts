/**
 * The cold-load budget against one address (cold-index-loads-per-client and the listings'
 * share, core/ceilings/ceilings.ts): an address listing and asking cold sites in turn spends no
 * more than its own loads, so a visitor's question on another cold site still loads and answers;
 * a free listing (llms.txt) loads only while more than half of the minute's budget is left. A
 * refusal spends nothing. The clock is the test's.
 */
import { describe, expect, test } from "bun:test";
import { metricsOf, metricsSurface, QUESTIONS, sampleSites, useSitesApp } from "../support/hosted-sites.ts";
import type { SitesService } from "../support/sites-app.ts";

const MINUTE = 60_000;
// 10 s into a minute: a refusal frees in 50 s.
const clock = Math.floor(Date.now() / MINUTE) * MINUTE + 10_000;

const samples = sampleSites(["alpha", "beta", "gamma", "delta"], () => ({ freeQueries: 3 }));
// Three loads a minute for the instance (a listing starts at most the first), two per client.
const ceilings = { "cold-index-loads": 3, "cold-index-loads-per-client": 2 };

let service: SitesService;
useSitesApp(
  () => ({ ...samples, surface: metricsSurface, ceilings, now: () => clock }),
  (built) => {
    service = built;
  },
);

const STRANGER = "203.0.113.66";
const VISITOR = "198.51.100.9";

describe("cold index loads, one address", () => {
  test("a stranger's listings and declined questions spend its own loads; a visitor's question still loads", async () => {
    // A listing loads while more than half of the budget is left (floor(3 / 2) = 1 load).
    expect((await service.call("/sites/alpha/llms.txt", {}, STRANGER)).status).toBe(200);
    // A declined question loads on the client's count (its second), and is given back.
    const declined = await service.ask("/sites/beta/api/chat", "xqzv plorb wunkle?", STRANGER);
    expect(declined.status).toBe(200);
    expect(((await declined.json()) as { rateLimit: { remaining: number } }).rateLimit.remaining).toBe(3);
    // Its third cold site this minute is refused, and spends nothing.
    const refused = await service.call("/sites/gamma/llms.txt", {}, STRANGER);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("50");
    expect(await refused.json()).toMatchObject({ success: false, code: "COLD_INDEX_LOADS_LIMITED" });
    const again = await service.ask("/sites/gamma/api/chat", QUESTIONS.gamma, STRANGER);
    expect(again.status).toBe(503);
    // The visitor's question takes the instance's third load.
    const answered = await service.ask("/sites/delta/api/chat", QUESTIONS.delta, VISITOR);
    expect(answered.status).toBe(200);
    // Past half the budget, a listing by anyone loads nothing; a loaded site still lists.
    const listing = await service.call("/sites/gamma/llms.txt", {}, "203.0.113.67");
    expect(listing.status).toBe(503);
    expect((await service.call("/sites/alpha/llms.txt", {}, "203.0.113.67")).status).toBe(200);
    const metrics = await metricsOf(service);
    expect(metrics).toMatch(/^site_index_loads_total 3$/m);
    expect(metrics).toContain('ceiling_refusals_total{ceiling="cold-index-loads-per-client"} 2');
    expect(metrics).toContain('ceiling_refusals_total{ceiling="cold-index-loads"} 1');
  });
});
