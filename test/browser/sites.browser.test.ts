/**
 * Two hosted sites in Chromium against the real service (`npm start` with the local demo chain
 * and a SITES_FILE of two folder sites, each with its own docs, price and title): each site's
 * demo page (/sites/<id>/) and a third-party page on another loopback origin (a site's listed
 * widget origin, embedding widget.js with data-site) ask that site's assistant, whose answer
 * cites that site's docs only; the demo wallet pays on one site, and the questions bought there
 * show on that site and not on the other.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSolanaRpc } from "@solana/kit";
import type { Browser, Page } from "playwright-core";
import { tokenBalance } from "../support/localnet.ts";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import { chromiumAvailable, launchBrowser, newPage, screenshot } from "./support/browser.ts";
import { ask, localnetOf, waitForAnswer, widget } from "./support/widget-page.ts";

const ALPHA_DOCS = {
  "zorblax.md":
    "# Zorblax frobnicator\n\nThe Zorblax frobnicator is configured with a frobnication level between one and nine. Set the level in zorblax.toml before the first run.\n",
};
const BETA_DOCS = {
  "quuxly.md":
    "# Quuxly sharding\n\nQuuxly shards every widget table by tenant. A shard is moved with the quuxly rebalance command, which never drops writes.\n",
};

/** The sites file and its two docs folders (relative to the file, as an operator writes them). */
const writeSites = (foreignOrigin: string): string => {
  const dir = mkdtempSync(join(tmpdir(), "sites-browser-"));
  for (const [folder, pages] of [
    ["alpha", ALPHA_DOCS],
    ["beta", BETA_DOCS],
  ] as const) {
    mkdirSync(join(dir, folder));
    for (const [name, text] of Object.entries(pages)) writeFileSync(join(dir, folder, name), text);
  }
  const file = join(dir, "sites.json");
  writeFileSync(
    file,
    JSON.stringify({
      sites: [
        { id: "alpha", docs: "./alpha", title: "Zorblax docs", price: "0.002", freeQuestions: 0 },
        {
          id: "beta",
          docs: "./beta",
          title: "Quuxly docs",
          price: "0.001",
          freeQuestions: 3,
          origins: [foreignOrigin],
        },
      ],
    }),
  );
  return file;
};

/** A docs owner's own page on another origin, embedding the service's widget for the site beta. */
const foreignPage = (service: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Quuxly home</title></head><body><h1>Quuxly, the sharding toolkit</h1>
<p>A third-party page with the assistant of the site beta.</p>
<script src="${service}/widget.js" defer data-site="beta" data-title="Ask Quuxly"></script>
</body></html>`;

/** The text of an answer's cited sources. */
const sourcesOf = async (page: Page, index: number) =>
  (await (await waitForAnswer(page, index)).locator(".sources").textContent()) ?? "";

describe.skipIf(!chromiumAvailable())("two hosted sites in the widget", () => {
  let service: ServiceProcess;
  let browser: Browser;
  let foreign: ReturnType<typeof Bun.serve>;
  let sitesFile: string;

  beforeAll(async () => {
    // Served on `localhost`: another origin than the service's 127.0.0.1, on the loopback.
    foreign = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(foreignPage(service.url), { headers: { "Content-Type": "text/html; charset=utf-8" } }),
    });
    sitesFile = writeSites(`http://localhost:${foreign.port}`);
    service = await startService({
      env: { SITES_FILE: sitesFile, RATE_LIMIT_FREE_QUERIES: "0" },
      readyTimeoutMs: 60_000,
    });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
    await foreign?.stop(true);
    if (sitesFile !== undefined) rmSync(join(sitesFile, ".."), { recursive: true, force: true });
  });

  test("each demo page asks its own site: its title, its docs only", async () => {
    const context = await browser.newContext();
    const { page, problems } = await newPage(context);
    await page.goto(`${service.url}/sites/beta/`);
    expect(await page.title()).toBe("Quuxly docs · docs assistant");
    const w = widget(page);
    await w.launcher.click();
    await ask(page, "How does Quuxly move a shard?");
    const sources = await sourcesOf(page, 0);
    expect(sources).toContain("Quuxly");
    expect(sources).not.toContain("Zorblax");
    await w.quota.getByText("Questions left: 2").waitFor();
    await screenshot(page, "sites-beta-demo-page");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test("a third-party page on a listed origin embeds the site's widget with data-site", async () => {
    const context = await browser.newContext();
    const { page, problems } = await newPage(context);
    await page.goto(`http://localhost:${foreign.port}/`);
    const w = widget(page);
    await w.launcher.click();
    await ask(page, "Which command rebalances a Quuxly shard?");
    const sources = await sourcesOf(page, 0);
    expect(sources).toContain("Quuxly");
    expect(sources).not.toContain("Zorblax");
    // The same visitor's free questions on beta: one spent on its demo page, one here.
    await w.quota.getByText("Questions left: 1").waitFor();
    await screenshot(page, "sites-beta-third-party-page");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test("the demo wallet pays on alpha at alpha's price; the questions bought are alpha's only", async () => {
    const chain = await localnetOf(service);
    const rpc = createSolanaRpc(chain.rpcUrl);
    const received = await tokenBalance(rpc, chain.mint, chain.serviceWallet);
    const context = await browser.newContext();
    const { page, problems } = await newPage(context);
    await page.goto(`${service.url}/sites/alpha/`);
    expect(await page.title()).toBe("Zorblax docs · docs assistant");
    const w = widget(page);
    await w.launcher.click();
    await ask(page, "How do I set the Zorblax frobnication level?");
    await w.panel.getByRole("button", { name: "Browser wallet" }).click();
    await screenshot(page, "sites-alpha-payment-panel");
    await w.panel.getByRole("button", { name: "Pay with Demo wallet (local chain)" }).click();
    // 0.01 USDC at 0.002 a question.
    await w.panel.getByText("Payment verified: 5 questions added.").waitFor({ timeout: 30_000 });
    const sources = await sourcesOf(page, 0);
    expect(sources).toContain("Zorblax");
    expect(sources).not.toContain("Quuxly");
    await w.quota.getByText("Questions left: 4").waitFor();
    await screenshot(page, "sites-alpha-paid");
    expect(await tokenBalance(rpc, chain.mint, chain.serviceWallet)).toBe(received + 10_000n);

    // The same browser on beta: beta's own free questions, none of alpha's paid ones.
    await page.goto(`${service.url}/sites/beta/`);
    await w.launcher.click();
    await ask(page, "How does Quuxly move a shard?");
    await waitForAnswer(page, 0);
    await w.quota.getByText("Questions left: 0").waitFor();
    await screenshot(page, "sites-beta-after-alpha-payment");
    // And back on alpha, its credit is still there, untouched by the question on beta.
    await page.goto(`${service.url}/sites/alpha/`);
    await w.launcher.click();
    await ask(page, "Where is the Zorblax level set?");
    expect(await sourcesOf(page, 0)).toContain("Zorblax");
    await w.quota.getByText("Questions left: 3").waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
