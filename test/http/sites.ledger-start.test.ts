/**
 * A site's ledger start survives edits of the site. On the memory store used signatures live in
 * the process only, so transfers made before the ledger started are refused; editing a site (its
 * title) builds it a new runtime over the same store, and that must not move the start: a
 * transfer made before the edit is still credited after it, on memory and on Redis.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type * as Layer from "effect/Layer";
import { encodeBase58 } from "../../core/base58.ts";
import type { ChainLookup, ChainReader } from "../../core/ports/chain-reader.ts";
import { recentBlockTime, USDC_MINT, usdcPayment, WALLET } from "../support/parsed-tx.ts";
import { describeWithRedis } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";
import { scriptedChain } from "../support/test-layers.ts";

const folder = docsFolder({ "a.md": "# Alpha\n\nAlpha answers about alpha.\n" });
const apps: Array<{ dispose: () => Promise<void> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.dispose();
});

const creditedAfterEdit = async (redisUrl?: string) => {
  const lookups = new Map<string, ChainLookup>();
  const service = await buildSitesApp({
    defaultDocs: folder,
    ...(redisUrl === undefined ? {} : { redisUrl }),
    chain: {
      layer: scriptedChain(lookups) as Layer.Layer<ChainReader, unknown>,
      wallet: WALLET,
      usdcMint: USDC_MINT,
    },
    sites: [{ definition: siteDefinition("alpha"), folder }],
  });
  apps.push(service);
  // Made once the site is open, in the second before the edit (block times are whole seconds).
  const signature = encodeBase58(Uint8Array.from({ length: 64 }, (_, i) => (i * 7 + 3) % 256 || 1));
  lookups.set(signature, {
    kind: "found",
    transaction: usdcPayment(100_000n, { blockTime: recentBlockTime() }),
  });
  await Bun.sleep(1_010 - (Date.now() % 1_000));
  await service.sites.apply({ sites: [siteDefinition("alpha", { title: "Alpha, renamed" })] });
  const paid = await service.call(
    "/sites/alpha/api/payment",
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ signature, amount: 0.1, token: "USDC" }),
    },
    "198.51.100.91",
  );
  expect(await paid.json()).toMatchObject({ success: true });
  expect(paid.status).toBe(200);
};

describe("a site's ledger start survives an edit (memory store)", () => {
  test("a transfer made before the site's title changed is credited after it", () => creditedAfterEdit());
});

describeWithRedis("a site's ledger start survives an edit (Redis)", () => {
  const server = useRedisServer();
  test("a transfer made before the site's title changed is credited after it", () =>
    creditedAfterEdit(server.redis.url));
});
