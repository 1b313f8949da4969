/**
 * An answer on a small product site as its visitor reads it, in Chromium against the real
 * service (`npm start` with a SITES_FILE whose one folder site is a bike lock's three pages,
 * test/fixtures/docs/small-borealis): the sentence that answers with its [1], no "See also"
 * naming the pages that only mention the lock, and the cited page as the first (here the only)
 * source. The widget's screenshot goes to test/browser/screenshots/, and with
 * DOCS_SCREENSHOTS=1 to docs/small-site-answer.png too (kept out of ordinary runs: the quota's
 * reset time in it changes every minute).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { REPO_ROOT, type ServiceProcess, startService } from "../support/service-process.ts";
import { axeViolations, chromiumAvailable, launchBrowser, newPage, SCREENSHOTS } from "./support/browser.ts";
import { ask, waitForAnswer, widget } from "./support/widget-page.ts";

const DOCS = join(REPO_ROOT, "test/fixtures/docs/small-borealis");

describe.skipIf(!chromiumAvailable())("an answer on a small site", () => {
  let service: ServiceProcess;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "small-site-"));
    const sitesFile = join(dir, "sites.json");
    writeFileSync(
      sitesFile,
      JSON.stringify({ sites: [{ id: "borealis", docs: DOCS, title: "Borealis Bike Lock" }] }),
    );
    service = await startService({ env: { SITES_FILE: sitesFile }, readyTimeoutMs: 60_000 });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test("the answer quotes the weight, names no unrelated page, and lists the cited page first", async () => {
    const context = await browser.newContext({ viewport: { width: 960, height: 720 } });
    const { page, problems } = await newPage(context);
    await page.goto(`${service.url}/sites/borealis/`);
    await widget(page).launcher.click();
    await ask(page, "How much does the lock weigh?");
    const answer = await waitForAnswer(page, 0);
    const body = (await answer.locator(".body").textContent()) ?? "";
    expect(body).toContain("1.2 kg");
    expect(await answer.getByText("1.2 kg").isVisible()).toBe(true);
    expect(body).not.toContain("See also");
    // Every citation is to the one page that answers.
    expect(new Set(await answer.locator(".body a.cite").allInnerTexts())).toEqual(new Set(["[1]"]));
    const sources = await answer.locator(".sources li").allInnerTexts();
    expect(sources).toHaveLength(1);
    expect(sources[0]).toStartWith("[1]");
    expect(sources[0]).toContain("Borealis Bike Lock overview");
    expect(sources[0]).toContain("index.md");
    const dialog = widget(page).dialog;
    await dialog.screenshot({ path: join(SCREENSHOTS, "small-site-answer.png") });
    if (process.env.DOCS_SCREENSHOTS === "1")
      await dialog.screenshot({ path: join(REPO_ROOT, "docs/small-site-answer.png") });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
