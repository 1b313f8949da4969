/**
 * A page on another site cannot lock the owner out of the console, nor sign the owner out: in
 * Chromium, a page served from http://localhost:<port> (another site than the service's
 * http://127.0.0.1:<port>) fires a burst of wrong-token logins and a logout at the real app;
 * each is refused as cross-site before it is counted, and the owner, on the same machine and
 * browser, then signs in with the token and stays signed in. Before the Origin/Sec-Fetch-Site
 * check, the burst locked the owner's address out for 15 minutes (429 on the right token).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { type TestApp, testApps } from "../support/test-app.ts";
import { chromiumAvailable, launchBrowser, newPage } from "./support/browser.ts";

const TOKEN = "cross-site-admin-token-0123456789";
const build = testApps(afterAll);

/** The foreign page: six wrong tokens and a logout, posted like any cross-site form would be. */
const foreignPage = (target: string) => `<!doctype html><title>cat pictures</title>
<script>
  const post = (path, body) =>
    fetch("${target}" + path, { method: "POST", mode: "no-cors", credentials: "include", body });
  (async () => {
    for (let i = 0; i < 6; i++) await post("/admin/login", new URLSearchParams({ token: "guess-" + i }));
    await post("/admin/logout", new URLSearchParams());
    document.title = "done";
  })();
</script>`;

describe.skipIf(!chromiumAvailable())("the console against another site's page", () => {
  let browser: Browser;
  let t: TestApp;
  let service: ReturnType<typeof Bun.serve>;
  let foreign: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    browser = await launchBrowser();
    t = build({ adminToken: TOKEN });
    service = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request, server) => t.app.fetch(request, { remoteAddress: server.requestIP(request)?.address }),
    });
    const target = `http://127.0.0.1:${service.port}`;
    foreign = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response(foreignPage(target), { headers: { "Content-Type": "text/html" } }),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop(true);
    await foreign?.stop(true);
  });

  test("a burst of wrong logins from another site neither locks the owner out nor signs the owner out", async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context);
    const visitForeignPage = async () => {
      const other = await context.newPage();
      await other.goto(`http://localhost:${foreign.port}/`);
      await other.waitForFunction(() => document.title === "done", undefined, { timeout: 10_000 });
      await other.close();
    };

    await visitForeignPage();
    await page.goto(`http://127.0.0.1:${service.port}/admin`);
    await page.getByLabel("Admin token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Not "Too many attempts" (429): the owner's console opens.
    await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 10_000 });
    // Every attack request reached the service, and each was refused as cross-site, not counted.
    expect(t.metrics.render()).toContain("admin_cross_site_refused_total 7");
    expect(t.metrics.render()).toContain("admin_auth_failures_total 0");

    // The foreign page again, now that the owner is signed in: the owner stays signed in.
    await visitForeignPage();
    await page.reload();
    await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 10_000 });
    expect(t.metrics.render()).toContain("admin_cross_site_refused_total 14");
    await context.close();
  }, 60_000);
});
