/**
 * Who reaches the insights: nobody without ADMIN_TOKEN configured (404, nothing recorded); with
 * it, a bearer token or the login form's session cookie. Wrong tokens are 401, counted, and
 * after five the client is locked out (429, even with the right token); admin routes are never
 * shared through CORS and never cached.
 */

import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { InsightsStore } from "../../core/ports/insights-store.ts";
import { InsightsResponse } from "../../src/http/schemas/admin.ts";
import { testApps } from "../support/test-app.ts";

const TOKEN = "test-admin-token-0123456789";
const build = testApps();
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
const form = (token: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ token }).toString(),
});
const ADMIN_PATHS = ["/admin", "/admin/console.js", "/api/admin/insights", "/api/admin/export"];

describe("without ADMIN_TOKEN", () => {
  test("the console and its API do not exist (404), with or without a token", async () => {
    const t = build();
    for (const path of ADMIN_PATHS) {
      for (const init of [{}, bearer(TOKEN)]) {
        const res = await t.call(path, init);
        expect(res.status).toBe(404);
        expect((await res.json()).code).toBe("NOT_FOUND");
      }
    }
    expect((await t.call("/admin/login", form(TOKEN))).status).toBe(404);
  });

  test("nothing is recorded", async () => {
    const t = build();
    expect((await t.chat("How do I write a file?")).status).toBe(200);
    const kept = await t.runtime.runPromise(
      InsightsStore.use((store) => store.between(0, Number.MAX_SAFE_INTEGER, 0)),
    );
    expect(kept).toEqual([]);
    expect(t.metrics.render()).toContain("insights_events_total 0");
  });
});

describe("the admin API", () => {
  test("401 without a token or with a wrong one; 200 with the right one, never cached", async () => {
    const t = build({ adminToken: TOKEN });
    const none = await t.call("/api/admin/insights");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="admin"');
    expect(await none.json()).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    for (const authorization of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${btoa(`admin:${TOKEN}`)}`,
      "Bearer",
    ]) {
      const wrong = await t.call("/api/admin/insights", { headers: { Authorization: authorization } });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).error).toBe("Wrong admin token");
    }
    const ok = await t.call("/api/admin/insights", bearer(TOKEN), "198.51.100.1");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const decoded = Schema.decodeUnknownResult(InsightsResponse)(await ok.json(), {
      onExcessProperty: "error",
    });
    expect(Result.isSuccess(decoded)).toBe(true);
    expect(t.metrics.render()).toContain("admin_auth_failures_total 4");
    expect(t.lines.filter((line) => line.msg === "wrong admin credentials")).toHaveLength(4);
    expect(JSON.stringify(t.lines)).not.toContain(TOKEN.slice(0, 12));
  });

  test("five wrong tokens lock the client out (429 with Retry-After), even with the right token; others are not", async () => {
    const t = build({ adminToken: TOKEN });
    for (let i = 0; i < 5; i++)
      expect((await t.call("/api/admin/insights", bearer(`guess-${i}`))).status).toBe(401);
    const locked = await t.call("/api/admin/insights", bearer(TOKEN));
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("900");
    expect((await locked.json()).code).toBe("TOO_MANY_ATTEMPTS");
    // The login form is locked too: guesses through either door count together.
    expect((await t.call("/admin/login", form(TOKEN))).status).toBe(429);
    expect((await t.call("/admin")).status).toBe(429);
    // Another client is not affected.
    expect((await t.call("/api/admin/insights", bearer(TOKEN), "198.51.100.2")).status).toBe(200);
    expect(t.metrics.render()).toContain("admin_auth_locked_total 3");
  });

  test("a bad range or format is 400 with what is wrong", async () => {
    const t = build({ adminToken: TOKEN });
    for (const query of [
      "from=2030-02-30",
      "to=yesterday",
      "from=2030-01-05&to=2030-01-01",
      "from=2000-01-01&to=2030-01-01",
    ]) {
      const res = await t.call(`/api/admin/insights?${query}`, bearer(TOKEN));
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("INVALID_REQUEST");
    }
    const format = await t.call("/api/admin/export?format=xml", bearer(TOKEN));
    expect(format.status).toBe(400);
    expect((await format.json()).details).toContain("format");
  });

  test("admin routes are never in CORS, even for an allowed origin", async () => {
    const origin = "https://docs.example.com";
    const t = build({ adminToken: TOKEN, allowedOrigins: [origin] });
    const shared = await t.call("/api/status", { headers: { Origin: origin } });
    expect(shared.headers.get("access-control-allow-origin")).toBe(origin);
    for (const path of ["/api/admin/insights", "/admin"]) {
      const res = await t.call(path, { headers: { Origin: origin, Authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      const preflight = await t.call(path, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "authorization",
        },
      });
      expect(preflight.status).toBe(403);
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    }
  });
});

describe("the login form and its session", () => {
  const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

  test("the right token sets an HttpOnly, SameSite=Strict session that opens the console and the API", async () => {
    const t = build({ adminToken: TOKEN });
    const page = await t.call("/admin");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/admin/login">');
    expect(html).not.toContain("console.js");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    const login = await t.call("/admin/login", form(TOKEN));
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/admin");
    const setCookie = login.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(
      /^docs_chat_admin=[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect(setCookie).not.toContain(TOKEN);
    const cookie = { headers: { Cookie: cookieOf(login) } };
    const consolePage = await t.call("/admin", cookie);
    expect(await consolePage.text()).toContain(
      '<script src="/admin/console.js" defer data-base=""></script>',
    );
    expect((await t.call("/api/admin/insights", cookie)).status).toBe(200);

    const logout = await t.call("/admin/logout", { method: "POST", ...cookie });
    expect(logout.status).toBe(303);
    expect(logout.headers.get("set-cookie")).toContain("Max-Age=0");
    // Logout revokes the session on the server: a kept copy of the cookie opens nothing any more,
    // and counts as no credentials (not as a guess).
    const afterLogout = await t.call("/api/admin/insights", cookie);
    expect(afterLogout.status).toBe(401);
    expect((await afterLogout.json()).error).toBe(
      "Admin token required: send Authorization: Bearer <ADMIN_TOKEN>, or log in at /admin",
    );
    expect(await (await t.call("/admin", cookie)).text()).toContain("Sign in");
    expect(t.metrics.render()).toContain("admin_auth_failures_total 0");
  });

  test("logging out ends only that session; another stays open", async () => {
    const t = build({ adminToken: TOKEN });
    const first = { headers: { Cookie: cookieOf(await t.call("/admin/login", form(TOKEN))) } };
    const second = { headers: { Cookie: cookieOf(await t.call("/admin/login", form(TOKEN))) } };
    expect(first.headers.Cookie).not.toBe(second.headers.Cookie);
    expect((await t.call("/admin/logout", { method: "POST", ...first })).status).toBe(303);
    expect((await t.call("/api/admin/insights", first)).status).toBe(401);
    expect((await t.call("/api/admin/insights", second)).status).toBe(200);
  });

  test("a wrong token is 401 with a message; a forged or stale session is not a guess (no lock-out); an expired one asks to sign in", async () => {
    const t = build({ adminToken: TOKEN });
    const wrong = await t.call("/admin/login", form("not-the-token"));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That is not the admin token.");
    expect((await t.call("/admin/login", form(""))).status).toBe(200); // nothing typed: no guess

    const id = "AAAAAAAAAAAAAAAAAAAAAA";
    const sign = (key: string, at: number) =>
      createHmac("sha256", key).update(`admin-session|${id}|${at}`).digest("base64url");
    const expiresAt = Date.now() + 3_600_000;
    const forged = `docs_chat_admin=${id}.${expiresAt}.${sign("another-token", expiresAt)}`;
    expect((await t.call("/api/admin/insights", { headers: { Cookie: forged } })).status).toBe(401);
    const past = Date.now() - 1000;
    const expired = `docs_chat_admin=${id}.${past}.${sign(TOKEN, past)}`;
    const asked = await t.call("/admin", { headers: { Cookie: expired } });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Sign in");
    expect(t.metrics.render()).toContain("admin_auth_failures_total 1");
    // A cookie of an older format (or a rotated token), sent many times: never a lock-out.
    const stale = { headers: { Cookie: "docs_chat_admin=1767225600000.c3RhbGUtbWFj" } };
    for (let i = 0; i < 8; i++) expect((await t.call("/api/admin/insights", stale)).status).toBe(401);
    expect((await t.call("/admin/login", form(TOKEN))).status).toBe(303);
    expect(t.metrics.render()).toContain("admin_auth_failures_total 1");
  });
});
