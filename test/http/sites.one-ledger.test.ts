/**
 * One transfer pays once in the whole service. Hosted sites keep their own stores, but sites
 * with no wallet of their own receive in the service's wallet: with a ledger of used signatures
 * per site, one transfer could be claimed on the default site and again on each such site.
 * The ledger is the service's (on memory and on Redis): the second claim anywhere is refused.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type * as Layer from "effect/Layer";
import { encodeBase58 } from "../../core/base58.ts";
import type { RedisTarget } from "../../core/config/config-redis.ts";
import type { ChainLookup, ChainReader } from "../../core/ports/chain-reader.ts";
import { recentBlockTime, USDC_MINT, usdcPayment, WALLET } from "../support/parsed-tx.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { describeWithRedis } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";
import { scriptedChain } from "../support/test-layers.ts";

let seed = 11;
const newSignature = () =>
  encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i * 5 + seed++ * 17) % 256 || 1));

const folder = docsFolder({ "a.md": "# Alpha\n\nAlpha answers about alpha.\n" });
const apps: Array<{ dispose: () => Promise<void> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.dispose();
});

const build = async (redis?: string | RedisTarget) => {
  const lookups = new Map<string, ChainLookup>();
  const chain = scriptedChain(lookups, { value: undefined }) as Layer.Layer<ChainReader, unknown>;
  const service = await buildSitesApp({
    defaultDocs: folder,
    ...(redis === undefined ? {} : typeof redis === "string" ? { redisUrl: redis } : { redis }),
    chain: { layer: chain, wallet: WALLET, usdcMint: USDC_MINT },
    // Neither site has a wallet of its own: both receive in the service's.
    sites: [
      { definition: siteDefinition("alpha"), folder },
      { definition: siteDefinition("beta"), folder },
    ],
  });
  apps.push(service);
  return { service, lookups };
};

const pay = (service: Awaited<ReturnType<typeof buildSitesApp>>, path: string, signature: string) =>
  service.call(
    path,
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ signature, amount: 0.1, token: "USDC" }),
    },
    "198.51.100.77",
  );

const claimOnce = async (redis?: string | RedisTarget) => {
  const { service, lookups } = await build(redis);
  const signature = newSignature();
  lookups.set(signature, {
    kind: "found",
    transaction: usdcPayment(100_000n, { blockTime: recentBlockTime() }),
  });
  expect((await pay(service, "/sites/alpha/api/payment", signature)).status).toBe(200);
  for (const path of ["/sites/beta/api/payment", "/api/payment", "/sites/alpha/api/payment"]) {
    const again = await pay(service, path, signature);
    expect(again.status).not.toBe(200);
    expect(((await again.json()) as { code: string }).code).toBe("SIGNATURE_ALREADY_USED");
  }
};

describe("one transfer pays once in the whole service (memory store)", () => {
  test("claimed on one site, it is refused on every other", () => claimOnce());
});

describeWithRedis("one transfer pays once in the whole service (Redis)", () => {
  const server = useRedisServer();
  test("claimed on one site, it is refused on every other", () => claimOnce(server.redis.url));
});

describeWithRedis("one transfer pays once in the whole service (a 3-primary Redis Cluster)", () => {
  // Each site's quota under its own prefix, the ledger the service's: one hash tag, one slot.
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  test("claimed on one site, it is refused on every other", () => claimOnce(cluster.target()));
});
