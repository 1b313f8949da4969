/**
 * The creditless sign-ins (creditless-sign-ins, core/ceilings/ceilings.ts) are one budget a UTC
 * minute for the whole service: fresh wallets signing in on three hosted sites, from many
 * addresses, on two instances of one Redis (and on memory), stop at the one budget, on every
 * site at once; counted per site, each site gave a stranger the budget again. /metrics counts
 * the refusals by the ceiling's name.
 */
import { expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import { describeOnStores, METRICS, metricsSurface, sampleSites } from "../support/hosted-sites.ts";
import { awayFromMinuteEdge } from "../support/minute-window.ts";
import { challengeOf, proofFor, signInWith } from "../support/sign-in-client.ts";
import type { SitesService } from "../support/sites-app.ts";

const BUDGET = 4;
const SITES = ["alpha", "beta", "gamma"] as const;
const { defaultDocs, sites } = sampleSites(SITES);
const options = () => ({
  defaultDocs,
  sites,
  surface: metricsSurface,
  ceilings: { "creditless-sign-ins": BUDGET },
});

let client = 0;

describeOnStores("creditless sign-ins over hosted sites (%s)", options, (instances) => {
  /** A fresh wallet signs in on `site`, from an address of its own: the response's status. */
  const signIn = async (on: SitesService, site: string) => {
    const at = {
      call: async (path: string, init?: RequestInit, from?: string) =>
        on.call(`/sites/${site}${path}`, init, from),
    };
    const from = `198.51.100.${++client}`;
    const proof = await proofFor(await generateKeyPairSigner(), await challengeOf(at, from));
    return (await signInWith(at, proof, from)).status;
  };

  test("fresh wallets on three sites and two instances stop at the one budget", async () => {
    const { one, two } = instances;
    // The budget is per UTC minute: start well inside one, so the minute cannot turn mid-test.
    await awayFromMinuteEdge(10_000);
    const statuses = [];
    for (let i = 0; i < BUDGET + SITES.length; i++)
      statuses.push(await signIn(i % 2 === 0 ? one : two, SITES[i % SITES.length]!));
    // alpha, beta, gamma, alpha admitted; then beta, gamma and alpha each refused.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
    const refusals = async (service: SitesService) => {
      const response = await service.call("/metrics", { headers: { Authorization: `Bearer ${METRICS}` } });
      return (await response.text()).match(
        /ceiling_refusals_total\{ceiling="creditless-sign-ins"\} (\d+)/,
      )?.[1];
    };
    // Refused on the first instance twice (the 5th and 7th), on the second once (the 6th).
    expect(one === two ? [await refusals(one)] : [await refusals(one), await refusals(two)]).toEqual(
      one === two ? ["3"] : ["2", "1"],
    );
  }, 90_000);
});
