/**
 * The operator's console of a service hosting sites: with ADMIN_TOKEN, GET
 * /api/admin/sites sums up every hosted site (today's questions and revenue, exact; its index;
 * its price and wallet), and /admin loads the "Sites" section. A site owner's token opens only
 * that site's console, never the operator's summary; a site's own console has no such route.
 * On Redis, a second instance's summary counts the questions the first one served.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import type { SiteSummary } from "../../core/insights/sites-summary.ts";
import { InsightsStore } from "../../core/ports/insights-store.ts";
import { payment } from "../support/insight-events.ts";
import { describeWithRedis } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const OPERATOR = "operator-token-0123456789abcdef";
const ALPHA_OWNER = "alpha-owner-token-0123456789";
const ALPHA_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nThe service answers questions about its setup.\n" }),
  alpha: docsFolder({
    "zorblax.md":
      "# Zorblax frobnicator\n\nThe Zorblax frobnicator takes a frobnication level between one and nine.\n",
  }),
  beta: docsFolder({
    "quuxly.md":
      "# Quuxly sharding\n\nQuuxly shards every widget table by tenant with the rebalance command.\n",
  }),
};

const sites = [
  {
    definition: siteDefinition("alpha", {
      title: "Alpha docs",
      docs: { kind: "folder", path: docs.alpha },
      unitsPerQuery: 2500n,
      wallet: ALPHA_WALLET,
      hosts: ["docs.alpha.test"],
      ownerTokenSha256: sha256(ALPHA_OWNER),
    }),
    folder: docs.alpha,
  },
  { definition: siteDefinition("beta", { docs: { kind: "folder", path: docs.beta } }), folder: docs.beta },
];

type Service = Awaited<ReturnType<typeof buildSitesApp>>;
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

/** Asks each site its questions, then lets each site's console settle its recordings. */
const askAll = async (service: Service, questions: Readonly<Record<string, number>>) => {
  let client = 0;
  for (const [id, count] of Object.entries(questions))
    for (let i = 0; i < count; i++) {
      const response = await service.ask(
        `/sites/${id}/api/chat`,
        "How is it configured?",
        `198.51.100.${++client}`,
      );
      expect(response.status).toBe(200);
    }
  for (const id of Object.keys(questions))
    expect((await service.call(`/sites/${id}/api/admin/insights`, bearer(OPERATOR))).status).toBe(200);
};

const summaryOf = async (service: Service) => {
  const response = await service.call("/api/admin/sites", bearer(OPERATOR));
  expect(response.status).toBe(200);
  const body = (await response.json()) as { success: boolean; sites: ReadonlyArray<SiteSummary> };
  return new Map(body.sites.map((site) => [site.id, site]));
};

describe("operator's console: sites summary (memory store)", () => {
  let service: Service;
  beforeAll(async () => {
    service = await buildSitesApp({ defaultDocs: docs.default, sites, adminToken: OPERATOR });
    await askAll(service, { alpha: 2, beta: 1 });
    // Two payments recorded by alpha today.
    const alpha = service.sites.list().find((site) => site.definition.id === "alpha")!;
    for (const units of [2500, 1_000_003])
      await alpha.served.runtime.runPromise(
        Effect.flatMap(InsightsStore, (store) => store.append(payment(units, { at: Date.now() }))),
      );
  });
  afterAll(() => service?.dispose());

  test("every site: today's questions, revenue in exact base units, price, wallet, index", async () => {
    const summary = await summaryOf(service);
    expect([...summary.keys()]).toEqual(["alpha", "beta"]);
    const alpha = summary.get("alpha")!;
    expect(alpha).toMatchObject({
      title: "Alpha docs",
      docs: docs.alpha,
      hosts: ["docs.alpha.test"],
      price: { units: "2500", usdc: "0.0025" },
      freeQuestions: 3,
      wallet: ALPHA_WALLET,
      lastSync: null,
    });
    expect(alpha.today).toMatchObject({
      questions: 2,
      payments: 2,
      revenueUnits: "1002503",
      revenueUsdc: "1.002503",
    });
    expect(alpha.index.state).toBe("loaded");
    expect(alpha.index.chunks).toBeGreaterThan(0);
    expect(alpha.index.where).toBe(join(service.dataDir, "sites", "alpha", "index.bin"));
    expect(summary.get("beta")!.today).toMatchObject({ questions: 1, payments: 0, revenueUnits: "0" });
    expect(summary.get("beta")!.price).toEqual({ units: "1000", usdc: "0.001" });
  });

  test("a site's owner token does not open the operator's summary", async () => {
    const owner = await service.call("/api/admin/sites", bearer(ALPHA_OWNER));
    expect(owner.status).toBe(401);
    expect(JSON.stringify(await owner.json())).not.toContain("beta");
    expect((await service.call("/api/admin/sites")).status).toBe(401);
    // The owner's token opens the site's own console, which has no summary of the others.
    expect((await service.call("/sites/alpha/api/admin/insights", bearer(ALPHA_OWNER))).status).toBe(200);
    expect((await service.call("/sites/alpha/api/admin/sites", bearer(ALPHA_OWNER))).status).toBe(404);
    expect((await service.call("/sites/alpha/api/admin/sites", bearer(OPERATOR))).status).toBe(404);
    // On the site's own host /api/admin is the site's console: no summary there, and the
    // operator's token is not even taken (the site's owner runs that host).
    const onHost = (token: string) =>
      service.call("/api/admin/sites", {
        headers: { Authorization: `Bearer ${token}`, Host: "docs.alpha.test" },
      });
    expect((await onHost(ALPHA_OWNER)).status).toBe(404);
    expect((await onHost(OPERATOR)).status).toBe(403);
  });
});

describe("a service without ADMIN_TOKEN", () => {
  test("has no operator's summary, even for a site owner", async () => {
    const service = await buildSitesApp({ defaultDocs: docs.default, sites });
    try {
      expect((await service.call("/api/admin/sites", bearer(ALPHA_OWNER))).status).toBe(404);
    } finally {
      await service.dispose();
    }
  });
});

describeWithRedis("operator's console: sites summary (two instances on Redis)", () => {
  const context = useRedisServer();
  let first: Service;
  let second: Service;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sites-console-"));
    const options = {
      defaultDocs: docs.default,
      sites,
      adminToken: OPERATOR,
      dataDir,
      redisUrl: context.redis.url,
    };
    first = await buildSitesApp(options);
    second = await buildSitesApp(options);
    await askAll(first, { alpha: 3 });
    await askAll(second, { beta: 1 });
  });
  afterAll(async () => {
    await first?.dispose();
    await second?.dispose();
  });

  test("each instance counts every instance's questions, per site", async () => {
    for (const service of [first, second]) {
      const summary = await summaryOf(service);
      expect(summary.get("alpha")!.today).toMatchObject({ questions: 3, revenueUnits: "0" });
      expect(summary.get("beta")!.today).toMatchObject({ questions: 1 });
    }
  });
});
