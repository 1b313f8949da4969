/**
 * The operator's console of the real service hosting a site from SITES_FILE: the
 * service process (boot.ts) gives /admin the hosted sites' summary. Over HTTP, GET
 * /api/admin/sites counts the site's questions and is closed to the site owner's token; in
 * Chromium the operator signs in and sees the Sites section with that row.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { buildIndex, FIXTURE_DOCS, type ServiceProcess, startService } from "../support/service-process.ts";
import { chromiumAvailable, launchBrowser, newPage } from "./support/browser.ts";

const TOKEN = "operator-console-token-0123456789";
const OWNER = "acme-owner-console-token-0123";

let service: ServiceProcess;
let indexPath: string;
let work: string;

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
const ask = async (message: string, from: string) => {
  const response = await fetch(`${service.url}/sites/acme/api/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
    body: JSON.stringify({ message }),
  });
  expect(response.status).toBe(200);
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "admin-sites-"));
  cpSync(FIXTURE_DOCS, join(work, "acme-docs"), { recursive: true });
  writeFileSync(
    join(work, "sites.json"),
    JSON.stringify({
      sites: [
        { id: "acme", docs: "./acme-docs", title: "Acme docs", price: "0.002", ownerTokenEnv: "ACME_OWNER" },
      ],
    }),
  );
  indexPath = await buildIndex();
  service = await startService({
    env: {
      INDEX_PATH: indexPath,
      ADMIN_TOKEN: TOKEN,
      ACME_OWNER: OWNER,
      SITES_FILE: join(work, "sites.json"),
      TRUST_PROXY: "loopback",
    },
  });
  await ask("How do I install Widgetron?", "203.0.113.7");
  await ask("Is Widgetron free?", "198.51.100.23");
  // The site's console settles its recordings into its store.
  expect((await fetch(`${service.url}/sites/acme/api/admin/insights`, bearer(OWNER))).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await service?.dispose();
  if (indexPath !== undefined) rmSync(dirname(indexPath), { recursive: true, force: true });
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe("the service's operator summary", () => {
  test("GET /api/admin/sites: the hosted site, its questions today and its index, for ADMIN_TOKEN only", async () => {
    const response = await fetch(`${service.url}/api/admin/sites`, bearer(TOKEN));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { sites: Array<Record<string, unknown>> };
    expect(body.sites).toHaveLength(1);
    expect(body.sites[0]).toMatchObject({
      id: "acme",
      title: "Acme docs",
      docs: join(work, "acme-docs"),
      price: { units: "2000", usdc: "0.002" },
      today: { questions: 2, payments: 0, revenueUnits: "0" },
      index: { state: "loaded" },
    });
    expect((await fetch(`${service.url}/api/admin/sites`, bearer(OWNER))).status).toBe(401);
  });
});

describe.skipIf(!chromiumAvailable())("the operator's console in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  test("signs in and shows the Sites section with the hosted site", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await newPage(context);
    await page.goto(`${service.url}/admin`);
    await page.getByLabel("Admin token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    const sites = page.locator("section#sites");
    await sites.waitFor();
    expect(await sites.locator("h2").textContent()).toBe("Sites");
    const row = sites.locator("tbody tr");
    expect(await row.count()).toBe(1);
    const cells = (await row.locator("td").allInnerTexts()).map((cell) => cell.replace(/\s+/g, " ").trim());
    expect(cells.slice(0, 5)).toEqual(["acme Acme docs", "2", expect.any(String), "0.00", "0.002"]);
    expect(cells[5]).toStartWith("loaded");
    await context.close();
  });

  test("a site's owner signs in to /sites/acme/admin and sees that site's report, not the operator's", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page } = await newPage(context);
    const calls: string[] = [];
    page.on("request", (request) => calls.push(new URL(request.url()).pathname));
    await page.goto(`${service.url}/sites/acme/admin`);
    await page.getByLabel("Admin token").fill(OWNER);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${service.url}/sites/acme/admin`);
    // The report loaded (the page did not reload itself over a 401), with the site's two questions.
    await page.locator("main#console[aria-busy='false']").waitFor();
    expect(await page.locator("main#console").textContent()).toContain("Widgetron");
    expect(await page.locator("section#sites").count()).toBe(0);
    // Every call of the page stayed on the site's console.
    const consoleCalls = calls.filter((path) => path.includes("/admin"));
    expect(consoleCalls.length).toBeGreaterThan(2);
    expect(consoleCalls.every((path) => path.startsWith("/sites/acme/"))).toBe(true);
    // The owner's session opens nothing of the operator's.
    await page.goto(`${service.url}/admin`);
    expect(await page.getByLabel("Admin token").count()).toBe(1);
    await context.close();
  });
});
