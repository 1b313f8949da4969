/**
 * Hosted sites on Redis share one connection per process: each site's store, answer cache and
 * docs-sync record live under its own key prefix, but fifty sites must not mean 150 sockets.
 * Counted on a real redis-server (CLIENT LIST) with 2 and with 8 sites: the same number.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { describeWithRedis, rawClient } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

describeWithRedis("hosted sites on Redis", () => {
  const server = useRedisServer();
  const folder = docsFolder({ "a.md": "# Alpha\n\nAlpha answers questions about alpha things.\n" });
  const defaultDocs = docsFolder({ "d.md": "# Default\n\nThe default site.\n" });
  const probe = { client: undefined as ReturnType<typeof rawClient> | undefined };
  afterAll(() => probe.client?.disconnect());

  const connectionsWith = async (count: number) => {
    const service = await buildSitesApp({
      redisUrl: server.redis.url,
      defaultDocs,
      // One client asks every site in turn: more cold loads than one client is allowed a minute.
      ceilings: { "cold-index-loads-per-client": 100 },
      sites: Array.from({ length: count }, (_, i) => ({ definition: siteDefinition(`site-${i}`), folder })),
    });
    try {
      // Every site's store and answer cache in use.
      for (let i = 0; i < count; i++) {
        expect((await service.call(`/sites/site-${i}/api/status`)).status).toBe(200);
        expect((await service.ask(`/sites/site-${i}/api/chat`, "What are alpha things?")).status).toBe(200);
      }
      probe.client ??= rawClient(server.redis.url);
      const list = (await probe.client.client("LIST")) as string;
      // Less the probe's own connection.
      return list.trim().split("\n").length - 1;
    } finally {
      await service.dispose();
    }
  };

  test("eight sites hold as many connections as two", async () => {
    const two = await connectionsWith(2);
    const eight = await connectionsWith(8);
    expect(eight).toBe(two);
  });

  test("every connection of the sites is closed when they are", async () => {
    probe.client ??= rawClient(server.redis.url);
    const list = (await probe.client.client("LIST")) as string;
    expect(list.trim().split("\n").length).toBe(1);
  });

  test("a site that cannot be opened (its docs folder is gone) leaves no connection behind", async () => {
    const service = await buildSitesApp({
      redisUrl: server.redis.url,
      defaultDocs,
      sites: [{ definition: siteDefinition("fine"), folder }],
    });
    await service.sites.apply({
      sites: [
        siteDefinition("fine"),
        siteDefinition("broken", { docs: { kind: "folder", path: join(folder, "no-such-folder") } }),
      ],
    });
    expect((await service.call("/sites/broken/api/status")).status).toBe(404);
    await service.dispose();
    probe.client ??= rawClient(server.redis.url);
    const list = (await probe.client.client("LIST")) as string;
    expect(list.trim().split("\n").length).toBe(1);
  });
});
