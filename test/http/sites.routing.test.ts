/**
 * Several docs sites on one service: a hosted site is served under /sites/<id>/ and
 * on its own host names, with its own docs, free questions, wallet and widget origins; an
 * unknown site is a 404 with a code, never the default site.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const ALPHA_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const BETA_WALLET = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";

const docs = {
  default: docsFolder({
    "guide.md":
      "# Service guide\n\nThe service answers questions about its own setup. Start it with npm start.\n",
  }),
  alpha: docsFolder({
    "zorblax.md":
      "# Zorblax frobnicator\n\nThe Zorblax frobnicator is configured with a frobnication level between one and nine. Set the level in zorblax.toml before the first run.\n",
  }),
  beta: docsFolder({
    "quuxly.md":
      "# Quuxly sharding\n\nQuuxly shards every widget table by tenant. A shard is moved with the quuxly rebalance command, which never drops writes.\n",
  }),
};

describe("hosted sites: routing and isolation (memory store)", () => {
  let service: Awaited<ReturnType<typeof buildSitesApp>>;
  beforeAll(async () => {
    service = await buildSitesApp({
      defaultDocs: docs.default,
      sites: [
        {
          definition: siteDefinition("alpha", {
            freeQueries: 2,
            wallet: ALPHA_WALLET,
            origins: ["https://alpha.example"],
            hosts: ["docs.alpha.test"],
          }),
          folder: docs.alpha,
        },
        {
          definition: siteDefinition("beta", {
            freeQueries: 4,
            wallet: BETA_WALLET,
            origins: ["https://beta.example"],
          }),
          folder: docs.beta,
        },
      ],
    });
  });
  afterAll(() => service?.dispose());

  const sourcesOf = async (response: Response) => {
    const body = (await response.json()) as {
      sources?: ReadonlyArray<{ url?: string; source?: string; title?: string }>;
    };
    return (body.sources ?? []).map((source) => JSON.stringify(source));
  };

  test("each site answers from its own docs only", async () => {
    const alpha = await service.ask(
      "/sites/alpha/api/chat",
      "How do I set the Zorblax frobnication level?",
      "198.51.100.1",
    );
    expect(alpha.status).toBe(200);
    const alphaSources = await sourcesOf(alpha);
    expect(alphaSources.length).toBeGreaterThan(0);
    expect(alphaSources.every((source) => source.includes("zorblax"))).toBe(true);

    const beta = await service.ask(
      "/sites/beta/api/chat",
      "How do I set the Zorblax frobnication level?",
      "198.51.100.1",
    );
    expect(beta.status).toBe(200);
    expect((await sourcesOf(beta)).some((source) => source.includes("zorblax"))).toBe(false);

    const fromDefault = await service.ask(
      "/api/chat",
      "How do I set the Zorblax frobnication level?",
      "198.51.100.1",
    );
    expect((await sourcesOf(fromDefault)).some((source) => source.includes("zorblax"))).toBe(false);
  });

  test("a site's demo page embeds the widget with data-site, its snippet naming the service's address", async () => {
    const page = await (await service.call("/sites/alpha/")).text();
    expect(page).toContain('<script src="/widget.js" defer data-site="alpha"');
    expect(page).toContain('&lt;script src="http://localhost/widget.js" defer data-site="alpha"');
  });

  test("an unknown site is a 404 with a code, not the default site", async () => {
    for (const path of [
      "/sites/nope/api/status",
      "/sites/nope",
      "/sites/ALPHA/api/status",
      "/sites//api/status",
    ]) {
      const response = await service.call(path);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe("SITE_NOT_FOUND");
    }
  });

  test("free questions are counted per site", async () => {
    const from = "198.51.100.20";
    const remaining = async (path: string) =>
      (await (await service.call(path, {}, from)).json()) as { remaining?: number; freeRemaining?: number };
    const alphaBefore = await remaining("/sites/alpha/api/status");
    const betaBefore = await remaining("/sites/beta/api/status");
    const defaultBefore = await remaining("/api/status");
    expect(JSON.stringify(alphaBefore)).not.toBe(JSON.stringify(betaBefore));
    expect((await service.ask("/sites/alpha/api/chat", "Zorblax level?", from)).status).toBe(200);
    expect((await service.ask("/sites/alpha/api/chat", "Zorblax level?", from)).status).toBe(200);
    // Alpha's two free questions are spent; beta's and the default site's are whole.
    expect((await service.ask("/sites/alpha/api/chat", "Zorblax level?", from)).status).toBe(402);
    expect(await remaining("/sites/beta/api/status")).toEqual(betaBefore);
    expect(await remaining("/api/status")).toEqual(defaultBefore);
    expect((await service.ask("/sites/beta/api/chat", "Quuxly shards?", from)).status).toBe(200);
  });

  test("payment terms name each site's own wallet", async () => {
    const wallet = async (path: string) => JSON.stringify(await (await service.call(path)).json());
    expect(await wallet("/sites/alpha/api/payment/info")).toContain(ALPHA_WALLET);
    expect(await wallet("/sites/beta/api/payment/info")).toContain(BETA_WALLET);
    const own = await wallet("/api/payment/info");
    expect(own).not.toContain(ALPHA_WALLET);
    expect(own).not.toContain(BETA_WALLET);
  });

  test("a site's own host name serves it at the usual paths", async () => {
    const viaHost = await service.ask(
      "/api/chat",
      "How do I set the Zorblax frobnication level?",
      "198.51.100.30",
      {
        Host: "docs.alpha.test",
      },
    );
    expect(viaHost.status).toBe(200);
    expect((await sourcesOf(viaHost)).every((source) => source.includes("zorblax"))).toBe(true);
    // A name no site has is refused by the Host guard, as before.
    const foreign = await service.call("/api/status", { headers: { Host: "evil.example" } });
    expect(foreign.status).toBe(403);
  });

  test("the Host guard serves each site's widget origins on that site only (not on another, nor the default site)", async () => {
    const from = (path: string, origin: string) =>
      service.call(path, {
        method: "POST",
        headers: { Origin: origin, "Content-Type": "application/json" },
        body: "{}",
      });
    expect((await from("/sites/alpha/api/feedback", "https://alpha.example")).status).not.toBe(403);
    for (const [path, origin] of [
      ["/sites/beta/api/feedback", "https://alpha.example"],
      ["/api/feedback", "https://alpha.example"],
      ["/sites/alpha/api/feedback", "https://beta.example"],
    ] as const) {
      const refused = await from(path, origin);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe("ORIGIN_NOT_ALLOWED");
    }
  });

  test("CORS allows each site's widget origins on that site only", async () => {
    const allowOrigin = async (path: string, origin: string) =>
      (await service.call(path, { headers: { Origin: origin } })).headers.get("access-control-allow-origin");
    expect(await allowOrigin("/sites/alpha/api/status", "https://alpha.example")).toBe(
      "https://alpha.example",
    );
    expect(await allowOrigin("/sites/beta/api/status", "https://beta.example")).toBe("https://beta.example");
    expect(await allowOrigin("/sites/beta/api/status", "https://alpha.example")).toBeNull();
    expect(await allowOrigin("/api/status", "https://alpha.example")).toBeNull();
  });
});
