/**
 * The door of a hosted site's console, on the memory store and on one Redis with two
 * instances. A session cookie is signed under the site store's secret: one computed from what
 * the sites file holds (the owner token's SHA-256, which is public) is refused, while a real
 * session made on one instance opens the other. The operator's ADMIN_TOKEN opens a site's
 * console only on the service's host (`/sites/<id>/admin`), never on a Host the site's owner
 * (or another site's) controls, where the owner could read it; the owner's token works on both.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { buildSitesApp, docsFolder, siteDefinition } from "../support/sites-app.ts";

const ADMIN = "operator-admin-token-0123456789";
const OWNER = "alpha-owner-token-0123456789";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const docs = {
  default: docsFolder({ "guide.md": "# Service guide\n\nStart the service with npm start.\n" }),
  alpha: docsFolder({ "zorblax.md": "# Zorblax\n\nThe Zorblax frobnication level goes from one to nine.\n" }),
  beta: docsFolder({ "quuxly.md": "# Quuxly\n\nQuuxly shards every table by tenant.\n" }),
};

const sites = [
  {
    definition: siteDefinition("alpha", { hosts: ["docs.alpha.test"], ownerTokenSha256: sha256(OWNER) }),
    folder: docs.alpha,
  },
  { definition: siteDefinition("beta", { hosts: ["docs.beta.test:8443"] }), folder: docs.beta },
];

type Service = Awaited<ReturnType<typeof buildSitesApp>>;
const redis = redisServerAvailable() ? useRedisServer() : undefined;
let databases = 0;

/** One app on memory (twice the same), or two apps on one Redis; `adminToken` as given. */
const STORES: ReadonlyArray<
  readonly [string, (adminToken: string | undefined) => Promise<readonly [Service, Service]>]
> = [
  [
    "memory",
    async (adminToken) => {
      const one = await buildSitesApp({ defaultDocs: docs.default, sites, adminToken });
      return [one, one] as const;
    },
  ],
  ...(redis === undefined
    ? []
    : [
        [
          "redis, two instances",
          async (adminToken: string | undefined) => {
            const options = {
              defaultDocs: docs.default,
              sites,
              adminToken,
              redisUrl: `${redis.redis.url}/${++databases}`,
            };
            const first = await buildSitesApp(options);
            const second = await buildSitesApp({ ...options, dataDir: first.dataDir });
            return [first, second] as const;
          },
        ] as const,
      ]),
];

const INSIGHTS = "/sites/alpha/api/admin/insights";
let client = 0;
/** A fresh client address per request: the wrong tokens below must not lock the next checks out. */
const from = () => `198.51.100.${++client}`;

const login = (service: Service, path: string, token: string, host?: string) =>
  service.call(
    path,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Sec-Fetch-Site": "same-origin",
        ...(host === undefined ? {} : { Host: host }),
      },
      body: new URLSearchParams({ token }).toString(),
    },
    from(),
  );

/** The session cookie a login set (`name=value`), or "" when it set none. */
const cookieOf = (response: Response) => (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

describe.each(STORES)("a hosted site's console door (%s)", (_name, open) => {
  describe("without ADMIN_TOKEN", () => {
    let one: Service;
    let two: Service;
    beforeAll(async () => {
      [one, two] = await open(undefined);
    });
    afterAll(async () => {
      await one?.dispose();
      if (two !== one) await two?.dispose();
    });

    test("a session cookie computed from the sites file's public hash is refused", async () => {
      // What the key was before: SHA-256 over the site id, the owner token's hash and an empty ADMIN_TOKEN.
      const key = sha256(`site-console|alpha|${sha256(OWNER)}|`);
      const id = randomBytes(16).toString("base64url");
      const expiresAt = Date.now() + 60 * 60_000;
      const mac = createHmac("sha256", key).update(`admin-session|${id}|${expiresAt}`).digest("base64url");
      const forged = `docs_chat_admin_alpha=${id}.${expiresAt}.${mac}`;
      for (const service of [one, two]) {
        const response = await service.call(INSIGHTS, { headers: { Cookie: forged } }, from());
        expect(response.status).toBe(401);
        const page = await service.call("/sites/alpha/admin", { headers: { Cookie: forged } }, from());
        expect(await page.text()).not.toContain("admin.js");
      }
    });

    test("a real session made on one instance opens the other", async () => {
      const signedIn = await login(one, "/sites/alpha/admin/login", OWNER);
      expect(signedIn.status).toBe(303);
      const cookie = cookieOf(signedIn);
      expect(cookie.startsWith("docs_chat_admin_alpha=")).toBe(true);
      expect((await two.call(INSIGHTS, { headers: { Cookie: cookie } }, from())).status).toBe(200);
    });
  });

  describe("with ADMIN_TOKEN", () => {
    let one: Service;
    let two: Service;
    beforeAll(async () => {
      [one, two] = await open(ADMIN);
    });
    afterAll(async () => {
      await one?.dispose();
      if (two !== one) await two?.dispose();
    });

    const status = async (path: string, token: string, host?: string) =>
      (
        await two.call(
          path,
          { headers: { Authorization: `Bearer ${token}`, ...(host === undefined ? {} : { Host: host }) } },
          from(),
        )
      ).status;

    test("the operator's token opens a site's console on the service's host only", async () => {
      expect(await status(INSIGHTS, ADMIN)).toBe(200);
      expect(await status(INSIGHTS, OWNER)).toBe(200);
      // The site's own host, at the usual paths or under /sites/alpha: the owner's token only.
      for (const [path, host] of [
        ["/api/admin/insights", "docs.alpha.test"],
        ["/api/admin/insights", "DOCS.Alpha.test:443"],
        [INSIGHTS, "docs.alpha.test"],
      ] as const) {
        // Refused with the reason (403, not a bare 401), and counted like a wrong token.
        expect([path, host, await status(path, ADMIN, host)]).toEqual([path, host, 403]);
        expect([path, host, await status(path, OWNER, host)]).toEqual([path, host, 200]);
      }
      // Another site's host is another owner's: alpha's console is not there at all, so no
      // token for it is ever sent to a host beta's owner runs (listed with a port or not).
      for (const host of ["docs.beta.test:8443", "docs.beta.test", "docs.beta.test:443"])
        for (const token of [ADMIN, OWNER])
          expect([host, await status(INSIGHTS, token, host)]).toEqual([host, 404]);
      // The operator's own console is unchanged.
      expect(await status("/api/admin/insights", ADMIN)).toBe(200);
    });

    test("the API says why the operator's token is refused on the site's host", async () => {
      const refused = await two.call(
        "/api/admin/insights",
        { headers: { Authorization: `Bearer ${ADMIN}`, Host: "docs.alpha.test" } },
        from(),
      );
      const body = (await refused.json()) as { code: string; error: string };
      expect(body.code).toBe("ADMIN_TOKEN_NOT_HERE");
      expect(body.error).toContain("service's own host names");
    });

    test("the login form takes the operator's token on the service's host only", async () => {
      const onSiteHost = await login(one, "/admin/login", ADMIN, "docs.alpha.test");
      expect(onSiteHost.status).toBe(403);
      const page = await onSiteHost.text();
      expect(page).toContain("not taken on this host name");
      // Where to open it instead, named for this site (the text is HTML: no placeholder lost as a tag).
      expect(page).toContain("<code>/sites/alpha/admin</code>");
      expect(cookieOf(onSiteHost)).toBe("");
      expect((await login(one, "/admin/login", OWNER, "docs.alpha.test")).status).toBe(303);
      const onService = await login(one, "/sites/alpha/admin/login", ADMIN);
      expect(onService.status).toBe(303);
      expect((await two.call(INSIGHTS, { headers: { Cookie: cookieOf(onService) } }, from())).status).toBe(
        200,
      );
    });
  });
});
