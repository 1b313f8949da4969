/**
 * Cross-site attacks on a service hosting two sites, on the memory store and on one
 * shared Redis with two instances: everything a caller of site B holds (an answer id, a payment
 * memo, a session, its owner's token, a console session) names nothing on site A, and no path
 * or Host trick reaches one site's routes through another's. The payments on the chain are in
 * test/e2e/sites.chain.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { generateKeyPairSigner } from "@solana/kit";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { proofFor } from "../support/sign-in-client.ts";
import {
  docsFolder,
  type SitesService,
  siteDefinition,
  sitesInstances,
  useInstances,
} from "../support/sites-app.ts";

const ADMIN = "operator-admin-token-0123456789";
const OWNER = { alpha: "alpha-owner-token-0123456789", beta: "beta-owner-token-0123456789" };
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const ALPHA_WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const BETA_WALLET = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";

const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nStart the service with npm start.\n" }),
  alpha: docsFolder({
    "zorblax.md": "# Zorblax frobnicator\n\nThe Zorblax frobnication level goes from one to nine.\n",
  }),
  beta: docsFolder({
    "quuxly.md": "# Quuxly sharding\n\nQuuxly shards every table by tenant with the rebalance command.\n",
  }),
};

const sites = [
  {
    definition: siteDefinition("alpha", {
      freeQueries: 5,
      wallet: ALPHA_WALLET,
      hosts: ["docs.alpha.test"],
      ownerTokenSha256: sha256(OWNER.alpha),
    }),
    folder: docs.alpha,
  },
  {
    definition: siteDefinition("beta", {
      freeQueries: 5,
      unitsPerQuery: 2000n,
      wallet: BETA_WALLET,
      hosts: ["docs.beta.test"],
      ownerTokenSha256: sha256(OWNER.beta),
    }),
    folder: docs.beta,
  },
];

type Service = SitesService;
const redis = redisServerAvailable() ? useRedisServer() : undefined;
/** The two instances a test talks to: one app on memory (twice the same), or two apps on one Redis. */
const STORES = sitesInstances(redis, (redisUrl) => ({
  defaultDocs: docs.default,
  sites,
  adminToken: ADMIN,
  ...(redisUrl === undefined ? {} : { redisUrl }),
}));

const json = async (response: Response) => (await response.json()) as Record<string, unknown>;
const bearer = (token: string, headers: Record<string, string> = {}) => ({
  headers: { Authorization: `Bearer ${token}`, ...headers },
});

describe.each(STORES)("cross-site attacks (%s)", (_name, open) => {
  let one: Service;
  let two: Service;
  useInstances(open, (first, second) => {
    [one, two] = [first, second];
  });

  test("B's answer id does not vote on A, nor on the default site", async () => {
    const from = "198.51.100.40";
    const answered = await json(await one.ask("/sites/beta/api/chat", "How does Quuxly shard?", from));
    const answerId = answered.answerId as string;
    expect(typeof answerId).toBe("string");
    const vote = (path: string) =>
      two.call(
        path,
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ answerId, vote: "down" }),
        },
        from,
      );
    const onAlpha = await vote("/sites/alpha/api/feedback");
    expect(onAlpha.status).toBe(404);
    expect((await json(onAlpha)).code).toBe("UNKNOWN_ANSWER");
    expect((await vote("/api/feedback")).status).toBe(404);
    expect((await vote("/sites/beta/api/feedback")).status).toBe(200);
  });

  test("each site's payment terms name its own wallet, price and memo", async () => {
    const from = "198.51.100.41";
    const beta = await json(await one.call("/sites/beta/api/payment/info", {}, from));
    const alpha = await json(await two.call("/sites/alpha/api/payment/info", {}, from));
    expect([alpha.recipient, alpha.pricePerQuery]).toEqual([ALPHA_WALLET, "0.001"]);
    expect([beta.recipient, beta.pricePerQuery]).toEqual([BETA_WALLET, "0.002"]);
    expect(typeof beta.memo).toBe("string");
    expect(alpha.memo).not.toBe(beta.memo);
  });

  test("B's sign-in challenge and wallet session open nothing on A", async () => {
    const signer = await generateKeyPairSigner();
    const from = "198.51.100.42";
    const challenge = (await (
      await one.call("/sites/beta/api/session/challenge", {}, from)
    ).json()) as Parameters<typeof proofFor>[1];
    const proof = await proofFor(signer, challenge);
    const post = (path: string) =>
      two.call(
        path,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ proof }) },
        from,
      );
    // B's challenge, signed: on A and on the default site its nonce is unknown.
    expect((await post("/sites/alpha/api/session")).status).toBe(401);
    expect((await post("/api/session")).status).toBe(401);
    const signedIn = await post("/sites/beta/api/session");
    expect(signedIn.status).toBe(200);
    const token = ((await json(signedIn)).session as { token: string }).token;
    const session = { "X-Wallet-Session": token };
    const own = await one.ask("/sites/beta/api/chat", "Quuxly?", from, session);
    expect(own.status).toBe(200);
    for (const path of ["/sites/alpha/api/chat", "/api/chat"]) {
      const refused = await two.ask(path, "Zorblax?", from, session);
      expect([path, refused.status]).toEqual([path, 401]);
    }
  });

  test("an owner's token opens its own console only; ADMIN_TOKEN opens every one", async () => {
    const status = async (path: string, token: string, headers: Record<string, string> = {}) =>
      (await two.call(path, bearer(token, headers))).status;
    expect(await status("/sites/alpha/api/admin/insights", OWNER.alpha)).toBe(200);
    expect(await status("/sites/alpha/api/admin/insights", OWNER.beta)).toBe(401);
    expect(await status("/sites/beta/api/admin/insights", OWNER.beta)).toBe(200);
    expect(await status("/sites/beta/api/admin/export", OWNER.alpha)).toBe(401);
    expect(await status("/api/admin/insights", OWNER.alpha)).toBe(401);
    expect(await status("/api/admin/insights", OWNER.beta)).toBe(401);
    for (const path of [
      "/sites/alpha/api/admin/insights",
      "/sites/beta/api/admin/insights",
      "/api/admin/insights",
    ])
      expect(await status(path, ADMIN)).toBe(200);
    // On a site's own host, /api/admin is that site's console, not the operator's nor another's.
    expect(await status("/api/admin/insights", OWNER.beta, { Host: "docs.alpha.test" })).toBe(401);
    expect(await status("/api/admin/insights", OWNER.alpha, { Host: "docs.alpha.test" })).toBe(200);
  });

  test("a console session of one site does not open another's, nor the operator's", async () => {
    const signedIn = await one.call("/sites/beta/admin/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
      body: new URLSearchParams({ token: OWNER.beta }).toString(),
    });
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const [name = "", value = ""] = cookie.split("=");
    expect(name).toBe("docs_chat_admin_beta");
    expect((await two.call("/sites/beta/api/admin/insights", { headers: { Cookie: cookie } })).status).toBe(
      200,
    );
    for (const [path, cookieName] of [
      ["/sites/alpha/api/admin/insights", "docs_chat_admin_alpha"],
      ["/api/admin/insights", "docs_chat_admin"],
    ] as const)
      expect((await two.call(path, { headers: { Cookie: `${cookieName}=${value}` } })).status).toBe(401);
  });

  test("a site's insights hold its own questions and votes only", async () => {
    const marker = "How does Quuxly shard the plover table?";
    expect((await one.ask("/sites/beta/api/chat", marker, "198.51.100.43")).status).toBe(200);
    const exported = async (path: string) => {
      const response = await two.call(`${path}?format=json`, bearer(ADMIN));
      expect(response.status).toBe(200);
      return response.text();
    };
    expect(await exported("/sites/beta/api/admin/export")).toContain("plover");
    expect(await exported("/sites/alpha/api/admin/export")).not.toContain("plover");
    expect(await exported("/api/admin/export")).not.toContain("plover");
  });

  test("path and Host tricks reach no other site", async () => {
    const walletOf = async (path: string, headers: Record<string, string> = {}) => {
      const response = await two.call(path, { headers });
      const text = await response.text();
      return { status: response.status, text };
    };
    // Percent-encoded letters are the letters; dot segments are resolved before routing.
    expect((await walletOf("/sites/%61lpha/api/payment/info")).text).toContain(ALPHA_WALLET);
    // Dot segments are resolved before routing: the path names the site it ends in, nothing more.
    expect((await walletOf("/sites/alpha/../beta/api/payment/info")).text).toContain(BETA_WALLET);
    expect((await walletOf("/sites/alpha/%2e%2e/beta/api/payment/info")).text).toContain(BETA_WALLET);
    for (const path of [
      "/sites/alpha%2F..%2Fbeta/api/payment/info",
      "/sites/alpha%2fbeta/api/payment/info",
      "/sites/alpha%00/api/payment/info",
      "/sites/alpha%20/api/payment/info",
      "/sites/alpha;/api/payment/info",
    ]) {
      const response = await walletOf(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.text).toContain("SITE_NOT_FOUND");
    }
    // Inside a site an encoded slash is no way out to another site's or the operator's routes.
    for (const path of [
      "/sites/alpha/api%2F..%2F..%2Fbeta%2Fapi/payment/info",
      "/sites/alpha/..%2Fbeta/api/payment/info",
      "/sites/alpha/sites/beta/api/payment/info",
      "/sites/alpha/api%2Fpayment%2Finfo",
    ]) {
      const response = await walletOf(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.text).not.toContain(BETA_WALLET);
    }
    // A site's own host serves that site only: another site's path there is 404 (B's owner runs
    // that host and would read what A's visitors and owner send), its own path is itself.
    for (const path of [
      "/sites/alpha/api/payment/info",
      "/sites/alpha/admin",
      "/sites/alpha/api/admin/insights",
    ]) {
      const response = await walletOf(path, { Host: "docs.beta.test" });
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.text).not.toContain(ALPHA_WALLET);
    }
    expect((await walletOf("/sites/beta/api/payment/info", { Host: "docs.beta.test" })).text).toContain(
      BETA_WALLET,
    );
    // A host name finds its site whatever the port: never the default site (and its operator's doors).
    for (const host of ["docs.beta.test:8443", "docs.beta.test:443", "DOCS.beta.test:3000"]) {
      const response = await walletOf("/api/payment/info", { Host: host });
      expect([host, response.text.includes(BETA_WALLET)]).toEqual([host, true]);
    }
    expect((await walletOf("/api/payment/info", { Host: "DOCS.BETA.TEST" })).text).toContain(BETA_WALLET);
    expect((await walletOf("/api/payment/info", { Host: "docs.beta.test.evil" })).status).toBe(403);
  });
});
