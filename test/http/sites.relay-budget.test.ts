/**
 * The RPC relay's budgets (rpc-relay-per-client, rpc-relay: core/ceilings/ceilings.ts) are the
 * service's, not an instance's: calls through every site's /api/solana-rpc on two instances of
 * one Redis spend one client budget and one budget for everyone, so two instances forward what
 * one would (on memory, the one instance the same). A refused call reaches no upstream.
 */
import { expect, test } from "bun:test";
import {
  describeOnStores,
  metricsOf,
  metricsSurface,
  sampleSites,
  useRpcUpstream,
} from "../support/hosted-sites.ts";
import type { SitesService } from "../support/sites-app.ts";

/** 10 s into a UTC minute: the test's calls all fall in it. */
const NOW = 1_699_999_990_000;
const { defaultDocs, sites } = sampleSites(["alpha", "beta"]);

let forwarded = 0;
const upstream = useRpcUpstream(() => {
  forwarded += 1;
  return { context: { slot: 1 }, value: { blockhash: "1".repeat(32), lastValidBlockHeight: 100 } };
});
const options = () => ({
  defaultDocs,
  sites,
  rpcUrl: upstream.url(),
  surface: metricsSurface,
  ceilings: { "rpc-relay-per-client": 3, "rpc-relay": 5 },
  now: () => NOW,
});

const blockhash = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] });

describeOnStores("the RPC relay's budgets (%s)", options, (instances) => {
  const relay = async (on: SitesService, prefix: string, from: string) => {
    const response = await on.call(
      `${prefix}/api/solana-rpc`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: blockhash },
      from,
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test("one client budget and one for everyone over both instances and every site", async () => {
    const { one, two } = instances;
    forwarded = 0;
    // One client: three calls on alpha, beta and the default site, on alternate instances.
    const first = "198.51.100.70";
    const spent = [];
    for (const [on, prefix] of [
      [one, "/sites/alpha"],
      [two, "/sites/beta"],
      [one, ""],
      [two, "/sites/alpha"],
    ] as const)
      spent.push((await relay(on, prefix, first)).status);
    expect(spent).toEqual([200, 200, 200, 429]);
    // Another client takes the last two of everyone's five, then meets the service's budget.
    const second = "198.51.100.71";
    const refused = [];
    for (const on of [two, one, two]) refused.push(await relay(on, "/sites/beta", second));
    expect(refused.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(refused[2]?.body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32005, message: "RPC relay: the service's budget for this minute is spent" },
    });
    // A third client, on the other instance: the budget for everyone is spent for it too.
    expect((await relay(one, "/sites/alpha", "198.51.100.72")).status).toBe(429);
    expect(forwarded).toBe(5);
    const metrics = await metricsOf(two);
    // Each instance counts the refusals it made: the second instance two of the three (on
    // memory, the one instance all three).
    expect(metrics).toContain('ceiling_refusals_total{ceiling="rpc-relay-per-client"} 1');
    expect(metrics).toContain(`ceiling_refusals_total{ceiling="rpc-relay"} ${one === two ? 2 : 1}`);
  });
});
