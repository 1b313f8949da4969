/**
 * Login and logout come only from the console's own page: a browser's Sec-Fetch-Site must say
 * same-origin, or (browsers without it) its Origin must be the service's own. Refusals are 403,
 * counted apart and never toward the wrong-token lock-out, so another site cannot lock the
 * owner out or sign the owner out. A request with neither header is no page's (curl) and passes.
 * These run bound as in a container (HOST=0.0.0.0, no PUBLIC_ORIGIN), where the edge's Host and
 * Origin allow-list is off and the console's own check is the one that holds; on a loopback bind
 * the edge refuses a foreign Origin first, before the console counts anything.
 */
import { describe, expect, test } from "bun:test";
import { testApps } from "../support/test-app.ts";

const TOKEN = "test-admin-token-0123456789";
const build = testApps();

const login = (token: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams({ token }).toString(),
});
const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

describe("cross-site logins", () => {
  test.each([
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }],
    ["Sec-Fetch-Site: same-site (another port or subdomain)", { "Sec-Fetch-Site": "same-site" }],
    ["a foreign Origin without Sec-Fetch-Site", { Origin: "https://evil.example" }],
    ["Origin: null (a sandboxed frame)", { Origin: "null" }],
  ])("%s: 403, and twenty of them lock nobody out", async (_, headers) => {
    const t = build({ adminToken: TOKEN, host: "0.0.0.0" });
    for (let i = 0; i < 20; i++) {
      const refused = await t.call("/admin/login", login(`guess-${i}`, headers));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe(
        "Cross-site request refused: sign in from this service's own /admin page.",
      );
    }
    // Even the right token from there is refused; from the console's own page it signs in.
    expect((await t.call("/admin/login", login(TOKEN, headers))).status).toBe(403);
    const own = await t.call("/admin/login", login(TOKEN, { "Sec-Fetch-Site": "same-origin" }));
    expect(own.status).toBe(303);
    const metrics = t.metrics.render();
    expect(metrics).toContain("admin_cross_site_refused_total 21");
    expect(metrics).toContain("admin_auth_failures_total 0");
    expect(t.lines.filter((line) => line.msg === "cross-site admin request refused")).toHaveLength(21);
  });

  test("the console's own page passes by Sec-Fetch-Site, or by its Origin (own host, or PUBLIC_ORIGIN)", async () => {
    const t = build({ adminToken: TOKEN });
    const ownPage: ReadonlyArray<Record<string, string>> = [
      { "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" },
      { Origin: "http://localhost" }, // app.request's host
      {},
    ];
    for (const headers of ownPage)
      expect((await t.call("/admin/login", login(TOKEN, headers))).status).toBe(303);
    const behindProxy = build({ adminToken: TOKEN, surface: { publicOrigin: "https://chat.example.com" } });
    const ok = await behindProxy.call("/admin/login", login(TOKEN, { Origin: "https://chat.example.com" }));
    expect(ok.status).toBe(303);
    expect(
      (await behindProxy.call("/admin/login", login(TOKEN, { Origin: "http://localhost" }))).status,
    ).toBe(403);
  });

  test("on a loopback bind the edge refuses a foreign Origin first: the console counts nothing", async () => {
    const t = build({ adminToken: TOKEN });
    for (const origin of ["https://evil.example", "null"])
      for (let i = 0; i < 20; i++) {
        const refused = await t.call("/admin/login", login(`guess-${i}`, { Origin: origin }));
        expect(refused.status).toBe(403);
        expect((await refused.json()).code).toBe("ORIGIN_NOT_ALLOWED");
      }
    const metrics = t.metrics.render();
    expect(metrics).toContain('foreign_host_refused_total{header="origin"} 40');
    expect(metrics).toContain("admin_cross_site_refused_total 0");
    expect(metrics).toContain("admin_auth_failures_total 0");
    expect((await t.call("/admin/login", login(TOKEN, { Origin: "http://localhost" }))).status).toBe(303);
  });

  test("a cross-site logout neither signs out nor revokes the session", async () => {
    const t = build({ adminToken: TOKEN, host: "0.0.0.0" });
    const cookie = cookieOf(await t.call("/admin/login", login(TOKEN)));
    const logout = await t.call("/admin/logout", {
      method: "POST",
      headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
    });
    expect(logout.status).toBe(403);
    expect(logout.headers.get("set-cookie")).toBeNull();
    expect((await t.call("/api/admin/insights", { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

describe("wrong tokens from the console's own page still lock out", () => {
  test("five same-origin guesses: 429 with Retry-After 900, then even the right token", async () => {
    const t = build({ adminToken: TOKEN });
    const own = { "Sec-Fetch-Site": "same-origin" };
    for (let i = 0; i < 5; i++)
      expect((await t.call("/admin/login", login(`guess-${i}`, own))).status).toBe(401);
    const locked = await t.call("/admin/login", login(TOKEN, own));
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("900");
  });
});
