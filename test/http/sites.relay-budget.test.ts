/**
 * The RPC relay's budgets (rpc-relay-per-client, rpc-relay: core/ceilings/ceilings.ts) are the
 * service's, not an instance's: calls through every site's /api/solana-rpc on two instances of
 * one Redis spend one client budget and one budget for everyone, so two instances forward what
 * one would (on memory, the one instance the same). A refused call reaches no upstream.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import {
  docsFolder,
  type SitesService,
  siteDefinition,
  sitesInstances,
  useInstances,
} from "../support/sites-app.ts";

const METRICS = "metrics-token-0123456789abcdef";
/** 10 s into a UTC minute: the test's calls all fall in it. */
const NOW = 1_699_999_990_000;
const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nStart the service with npm start.\n" }),
  alpha: docsFolder({ "alpha.md": "# Alpha\n\nAlpha takes a level from one to nine.\n" }),
  beta: docsFolder({ "beta.md": "# Beta\n\nBeta shards every table by tenant.\n" }),
};
const sites = (["alpha", "beta"] as const).map((id) => ({
  definition: siteDefinition(id, { docs: { kind: "folder", path: docs[id] } }),
  folder: docs[id],
}));

let forwarded = 0;
let upstream: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const { id } = (await request.json()) as { id: unknown };
      forwarded += 1;
      return Response.json({
        jsonrpc: "2.0",
        id,
        result: { context: { slot: 1 }, value: { blockhash: "1".repeat(32), lastValidBlockHeight: 100 } },
      });
    },
  });
});
afterAll(() => upstream?.stop(true));

const redis = redisServerAvailable() ? useRedisServer() : undefined;
const STORES = sitesInstances(redis, (redisUrl) => ({
  defaultDocs: docs.default,
  sites,
  rpcUrl: `http://127.0.0.1:${upstream.port}`,
  surface: { metricsToken: Redacted.make(METRICS) },
  ceilings: { "rpc-relay-per-client": 3, "rpc-relay": 5 },
  now: () => NOW,
  ...(redisUrl === undefined ? {} : { redisUrl }),
}));

const blockhash = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] });

describe.each(STORES)("the RPC relay's budgets (%s)", (_name, open) => {
  let one: SitesService;
  let two: SitesService;
  useInstances(open, (first, second) => {
    [one, two] = [first, second];
  });
  const relay = async (on: SitesService, prefix: string, from: string) => {
    const response = await on.call(
      `${prefix}/api/solana-rpc`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: blockhash },
      from,
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test("one client budget and one for everyone over both instances and every site", async () => {
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
    const metrics = await (
      await two.call("/metrics", { headers: { Authorization: `Bearer ${METRICS}` } })
    ).text();
    // Each instance counts the refusals it made: the second instance two of the three (on
    // memory, the one instance all three).
    expect(metrics).toContain('ceiling_refusals_total{ceiling="rpc-relay-per-client"} 1');
    expect(metrics).toContain(`ceiling_refusals_total{ceiling="rpc-relay"} ${one === two ? 2 : 1}`);
  });
});
