/**
 * A site id once used for one wallet is refused for another, with the reason. The id names the
 * site's store (on Redis its keys, `docs-chat:site:<id>:`; on memory the store kept for a removed
 * site): a new site under an old id, paid into another wallet, inherited the visitors' credits,
 * sessions and payment records the old wallet's receipts bought. An open site edited to another
 * wallet is its owner moving it (allowed, the binding follows). On Redis the refusal outlives a
 * restart (the wallet the keys were written for is kept with them).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { describeWithRedis } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { buildSitesApp, docsFolder, type SitesService, siteDefinition } from "../support/sites-app.ts";

const folder = docsFolder({ "a.md": "# Alpha\n\nAlpha answers about alpha.\n" });
const FIRST = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const OTHER = "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH";
const apps: Array<SitesService> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.dispose();
});

const build = async (wallet: string, redisUrl?: string) => {
  const service = await buildSitesApp({
    defaultDocs: folder,
    ...(redisUrl === undefined ? {} : { redisUrl }),
    sites: [{ definition: siteDefinition("alpha", { wallet }), folder }],
  });
  apps.push(service);
  return service;
};

const isOpen = (service: SitesService) => service.sites.list().some((site) => site.definition.id === "alpha");

const refusedWithReason = (service: SitesService, held: string) =>
  expect(service.lines.find((line) => line.msg === "a site could not be opened")).toMatchObject({
    site: "alpha",
    cause: expect.stringContaining(`received payments in ${held}`),
  });

describe("a site id reused for another wallet (memory store)", () => {
  test("removed, then defined again with another wallet: refused with the reason; with its own wallet it opens", async () => {
    const service = await build(FIRST);
    await service.sites.apply({ sites: [] });
    await service.sites.apply({ sites: [siteDefinition("alpha", { wallet: OTHER })] });
    expect(isOpen(service)).toBe(false);
    refusedWithReason(service, FIRST);
    expect((await service.call("/sites/alpha/api/status")).status).toBe(404);
    await service.sites.apply({ sites: [siteDefinition("alpha", { wallet: FIRST })] });
    expect(isOpen(service)).toBe(true);
  });

  test("an open site edited to another wallet moves it; removed and put back with the old wallet, it is refused", async () => {
    const service = await build(OTHER);
    await service.sites.apply({ sites: [siteDefinition("alpha", { wallet: FIRST })] });
    expect(service.sites.list().find((site) => site.definition.id === "alpha")?.definition.wallet).toBe(
      FIRST,
    );
    await service.sites.apply({ sites: [] });
    await service.sites.apply({ sites: [siteDefinition("alpha", { wallet: OTHER })] });
    expect(isOpen(service)).toBe(false);
    refusedWithReason(service, FIRST);
  });
});

describeWithRedis("a site id reused for another wallet (Redis)", () => {
  const server = useRedisServer();
  test("after a restart, the id defined with another wallet is refused with the reason", async () => {
    const url = `${server.redis.url}/7`;
    const first = await build(FIRST, url);
    expect(isOpen(first)).toBe(true);
    await first.dispose();
    apps.splice(apps.indexOf(first), 1);
    const again = await build(OTHER, url);
    expect(isOpen(again)).toBe(false);
    refusedWithReason(again, FIRST);
  });
});
