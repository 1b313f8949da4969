/**
 * A change of the sites file never loses a site's credits: a site changed (a new title and
 * price) keeps its store, and a site removed from the file and put back finds its questions as
 * they were, on the memory store (whose credits live nowhere else, so its store is kept for the
 * process's life) and on Redis (same keys). Before, the memory store of a removed site was
 * dropped: put back, its visitors' paid questions were gone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import { waitFor } from "../support/free-port.ts";
import { describeWithRedis, type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nStart the service with npm start.\n" }),
  alpha: docsFolder({
    "zorblax.md": "# Zorblax frobnicator\n\nThe Zorblax frobnicator takes a level between one and nine.\n",
  }),
  beta: docsFolder({ "quuxly.md": "# Quuxly sharding\n\nQuuxly shards every table by tenant.\n" }),
};

const ALPHA = siteDefinition("alpha", { freeQueries: 3 });
const BETA = siteDefinition("beta", { freeQueries: 3 });
const VISITOR = "198.51.100.33";

const reloadCases = (redisUrl: () => string | undefined) => {
  let service: Awaited<ReturnType<typeof buildSitesApp>>;
  beforeAll(async () => {
    service = await buildSitesApp({
      defaultDocs: docs.default,
      redisUrl: redisUrl(),
      // Short, to see a retired runtime close within the test.
      retireAfterMs: 200,
      sites: [
        { definition: ALPHA, folder: docs.alpha },
        { definition: BETA, folder: docs.beta },
      ],
    });
  });
  afterAll(() => service?.dispose());

  const apply = (sites: ReadonlyArray<SiteDefinition>) => service.sites.apply({ sites });
  const remaining = async () =>
    ((await (await service.call("/sites/alpha/api/status", {}, VISITOR)).json()) as { remaining: number })
      .remaining;

  test("a changed site and a site removed then put back keep the questions their visitors used", async () => {
    expect((await service.ask("/sites/alpha/api/chat", "Zorblax level?", VISITOR)).status).toBe(200);
    expect(await remaining()).toBe(2);

    await apply([{ ...ALPHA, title: "Zorblax docs", unitsPerQuery: 3000n }, BETA]);
    const info = await service.call("/sites/alpha/api/payment/info", {}, VISITOR);
    expect(((await info.json()) as { pricePerQuery: string }).pricePerQuery).toBe("0.003");
    expect(await remaining()).toBe(2);

    await apply([BETA]);
    expect((await service.call("/sites/alpha/api/status", {}, VISITOR)).status).toBe(404);
    await apply([ALPHA, BETA]);
    expect(await remaining()).toBe(2);
    expect((await service.ask("/sites/alpha/api/chat", "Zorblax level?", VISITOR)).status).toBe(200);
    expect(await remaining()).toBe(1);
  });

  test("a removed site's runtime closes after the grace period; put back, the site serves again", async () => {
    const closed = () =>
      service.lines.filter((line) => line.msg === "retired site runtime closed" && line.site === "beta")
        .length;
    const before = closed();
    await apply([ALPHA]);
    await waitFor(async () => closed() > before, 10_000, "beta's runtime closed");
    await apply([ALPHA, BETA]);
    expect((await service.ask("/sites/beta/api/chat", "Quuxly shards?", VISITOR)).status).toBe(200);
  });
};

describe("a sites file change keeps a site's store (memory store)", () => reloadCases(() => undefined));

describeWithRedis("a sites file change keeps a site's store (Redis)", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.stop());
  reloadCases(() => redis.url);
});
