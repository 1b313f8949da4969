/**
 * Free questions across sites (free-questions-across-sites, core/ceilings/ceilings.ts): one
 * address gets its free answers on each site, but no more than the service's cap on all of them
 * together, on the memory store and on one Redis with two instances. Past the cap the client
 * meets the usual 402 ("free questions used", with the site's payment terms) on a site where it
 * still had free questions; a declined question is free and takes none; another address is not
 * touched; /metrics counts the refusals by the ceiling's name. GET /api/status shows no more
 * free questions than are left across sites, and reading it counts none.
 */
import { expect, test } from "bun:test";
import { QUOTA_EXHAUSTED_TEXT } from "../../src/http/error-response.ts";
import {
  describeOnStores,
  metricsOf,
  metricsSurface,
  QUESTIONS,
  sampleSites,
} from "../support/hosted-sites.ts";
import type { SitesService } from "../support/sites-app.ts";

/** Three free questions a site, four sites, five free answers across them. */
const ACROSS = 5;
const { defaultDocs, sites } = sampleSites(["alpha", "beta", "gamma"], () => ({ freeQueries: 3 }));

const body = async (response: Response) => (await response.json()) as Record<string, unknown>;

const options = () => ({
  defaultDocs,
  sites,
  surface: metricsSurface,
  ceilings: { "free-questions-across-sites": ACROSS },
});

describeOnStores("free questions across sites (%s)", options, (instances) => {
  type Site = "alpha" | "beta" | "gamma";
  const ask = async (on: SitesService, site: Site, from: string, question?: string) => {
    const response = await on.ask(`/sites/${site}/api/chat`, question ?? QUESTIONS[site], from);
    return { status: response.status, body: await body(response) };
  };

  test("one address gets at most the cap over every site; a declined question takes none", async () => {
    const { one, two } = instances;
    const from = "198.51.100.60";
    // Three on alpha (its own free questions), then one on beta, on either instance.
    for (let i = 0; i < 3; i++) expect((await ask(i % 2 === 0 ? one : two, "alpha", from)).status).toBe(200);
    expect((await ask(two, "beta", from)).status).toBe(200);
    // Off the docs: declined and free, across sites too.
    const declined = await ask(one, "beta", from, "What is the airspeed of an unladen swallow?");
    expect([declined.status, declined.body.declined]).toEqual([200, true]);
    // The fifth answer is the last free one anywhere.
    expect((await ask(one, "beta", from)).status).toBe(200);
    // beta still has a free question of its own and gamma three: both answer the usual 402.
    for (const site of ["beta", "gamma"] as const) {
      const refused = await ask(one, site, from);
      expect([site, refused.status, refused.body.error, refused.body.code]).toEqual([
        site,
        402,
        QUOTA_EXHAUSTED_TEXT,
        "PAYMENT_REQUIRED",
      ]);
      expect((refused.body.payment as Record<string, unknown>).recipient).toBeString();
    }
    // Another address is not touched.
    expect((await ask(two, "gamma", "198.51.100.61")).status).toBe(200);
    expect(await metricsOf(one)).toContain('ceiling_refusals_total{ceiling="free-questions-across-sites"} 2');
  });

  test("the status shows no more free questions than are left across sites, and reading it counts none", async () => {
    const { one, two } = instances;
    const from = "198.51.100.62";
    const status = async (on: SitesService, site: Site) => {
      const { free, remaining, requiresPayment } = await body(
        await on.call(`/sites/${site}/api/status`, {}, from),
      );
      return { free, remaining, requiresPayment };
    };
    // Three on alpha and one on beta: one free question left across sites.
    for (let i = 0; i < 3; i++) expect((await ask(i % 2 === 0 ? one : two, "alpha", from)).status).toBe(200);
    expect((await ask(two, "beta", from)).status).toBe(200);
    expect(await status(one, "alpha")).toEqual({ free: 0, remaining: 0, requiresPayment: true });
    // beta has two of its own left, gamma three: each shows the one left across sites.
    expect(await status(two, "beta")).toEqual({ free: 1, remaining: 1, requiresPayment: false });
    for (let i = 0; i < 3; i++)
      expect(await status(i % 2 === 0 ? one : two, "gamma")).toEqual({
        free: 1,
        remaining: 1,
        requiresPayment: false,
      });
    // The reads took nothing: the last free question is still there, on gamma.
    expect((await ask(one, "gamma", from)).status).toBe(200);
    expect(await status(two, "gamma")).toEqual({ free: 0, remaining: 0, requiresPayment: true });
    expect(await status(one, "beta")).toEqual({ free: 0, remaining: 0, requiresPayment: true });
  });
});
