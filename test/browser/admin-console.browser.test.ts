/**
 * The owner's console in Chromium after a scripted session on the real service (a process on
 * its embedded local chain, the fixture docs indexed with a base URL): three visitors (through
 * a trusted proxy's X-Forwarded-For) ask, are declined, vote and pay with real USDC transfers;
 * the owner signs in with the token and sees exactly that. Screenshots at desktop and mobile
 * sizes; axe-core finds no serious or critical violation.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { createSolanaRpc } from "@solana/kit";
import type { Browser, Page } from "playwright-core";
import { signAndSend, usdcTransferInstructions } from "../../src/solana/usdc-transfer.ts";
import { buildIndex, FIXTURE_DOCS, type ServiceProcess, startService } from "../support/service-process.ts";
import {
  axeViolations,
  chromiumAvailable,
  launchBrowser,
  newPage,
  SIZES,
  screenshot,
} from "./support/browser.ts";
import { localnetOf } from "./support/widget-page.ts";

const TOKEN = "console-admin-token-0123456789";
const VISITORS = ["203.0.113.7", "198.51.100.23", "192.0.2.44"] as const;

describe.skipIf(!chromiumAvailable())("the owner's console", () => {
  let browser: Browser;
  let service: ServiceProcess;
  let indexPath: string;

  const as = (visitor: string) => ({ "X-Forwarded-For": visitor, "Content-Type": "application/json" });
  const post = (path: string, visitor: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: "POST", headers: as(visitor), body: JSON.stringify(body) });
  const ask = async (visitor: string, message: string) => {
    const res = await post("/api/chat", visitor, { message });
    expect(res.status).toBe(200);
    return (await res.json()) as { answerId: string };
  };
  /** A transfer of `amount` presented to POST /api/payment: its status (a memo not ours is refused, and listed). */
  const pay = async (visitor: string, amount: number, memo?: string) => {
    const chain = await localnetOf(service);
    const instructions = await usdcTransferInstructions({
      payer: chain.payer,
      from: chain.payer,
      to: chain.serviceWallet,
      mint: chain.mint,
      units: BigInt(Math.round(amount * 1_000_000)),
      decimals: 6,
      memo,
    });
    const signature = await signAndSend(createSolanaRpc(chain.rpcUrl), chain.payer, instructions);
    const status = (await post("/api/payment", visitor, { signature, amount, token: "USDC" })).status;
    expect(status).toBe(memo === undefined ? 200 : 400);
    return { signature, payer: chain.payer.address };
  };
  let unattributed: { signature: string; payer: string };

  beforeAll(async () => {
    indexPath = await buildIndex(FIXTURE_DOCS, "https://docs.widgetron.example");
    service = await startService({
      env: {
        INDEX_PATH: indexPath,
        ADMIN_TOKEN: TOKEN,
        INSIGHTS_SALT: "console-test-salt-0123456789",
        TRUST_PROXY: "loopback",
        RATE_LIMIT_FREE_QUERIES: "3",
      },
    });
    const [a, b, c] = VISITORS;
    await ask(a, "How do I install Widgetron?");
    await ask(a, "how do i install widgetron");
    await ask(a, "Is Widgetron free?");
    await pay(a, 0.05);
    const slow = await ask(a, "How do I set a timeout on a connection?");
    expect(
      (await post("/api/feedback", a, { answerId: slow.answerId, vote: "down", comment: "No example" }))
        .status,
    ).toBe(200);
    await ask(b, "Как установить?");
    await ask(b, "как установить");
    await ask(b, "Πώς το εγκαθιστώ;");
    await pay(b, 0.01);
    const read = await ask(b, "How do I read a text file?");
    expect((await post("/api/feedback", b, { answerId: read.answerId, vote: "up" })).status).toBe(200);
    await ask(c, "Install Widgetron?");
    await ask(c, "How do I report a bug?");
    // A transfer whose x402 memo names no request of ours: nobody is served it, the owner refunds it.
    unattributed = await pay(c, 0.02, "x402:pay_NotOurs000000000000000000");
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
    if (indexPath !== undefined) rmSync(dirname(indexPath), { recursive: true, force: true });
  });

  const signIn = async (page: Page) => {
    await page.goto(`${service.url}/admin`);
    await page.getByLabel("Admin token").fill("a wrong token");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("That is not the admin token.").waitFor();
    await page.getByLabel("Admin token").fill(TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator(".cards").waitFor();
  };

  test.each(SIZES)(
    "%s: signs in and shows the session's figures, charts and tables with links to the cited pages",
    async (size, viewport) => {
      const context = await browser.newContext({ viewport });
      const { page, problems } = await newPage(context);
      await signIn(page);
      const cards = await page.locator(".card").allInnerTexts();
      expect(cards.slice(0, 7).map((card) => card.replace(/\s+/g, " "))).toEqual([
        "10 questions",
        "7 answered from the docs",
        "3 declined (docs gaps)",
        "1 / 1 votes up / down",
        "0.06 USDC revenue, 2 payments",
        "2 paying clients",
        "1 / 60 paid queries used / bought",
      ]);
      // One bar per day of the range; today's holds the session.
      expect(
        await page.locator("section", { hasText: "Questions per day" }).locator("rect.bar").count(),
      ).toBe(2);
      expect(
        await page.locator("section", { hasText: "Revenue per day" }).locator("rect.bar title").textContent(),
      ).toMatch(/: 0\.06 USDC$/);
      const gaps = page.locator("section", { hasText: "Docs gaps" });
      expect(await gaps.locator("tbody tr").count()).toBe(2);
      expect(await gaps.locator("tbody tr").first().textContent()).toContain("как установить");
      const top = page.locator("section", { hasText: "Top questions" }).locator("tbody tr").first();
      expect(await top.textContent()).toMatch(
        /^Install Widgetron\?also: how do i install widgetron \(1\)also: How do I install Widgetron\? \(1\)30/,
      );
      const links = await page
        .locator("section a[href]")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
      expect(links.some((href) => href.startsWith("https://docs.widgetron.example/"))).toBe(true);
      expect(
        links.every((href) => /^(https:\/\/docs\.widgetron\.example\/|\/api\/admin\/export\?)/.test(href)),
      ).toBe(true);
      const downVoted = page.locator("section", { hasText: "Answers voted down" });
      expect(await downVoted.textContent()).toContain("No example");
      const refunds = page.locator("section", { hasText: "Unattributed payments" }).locator("tbody tr");
      expect(await refunds.count()).toBe(1);
      const refund = (await refunds.first().textContent()) ?? "";
      expect(refund).toContain(unattributed.payer);
      expect(refund).toContain("0.02");
      expect(refund).toContain("no memo of ours");
      expect(refund).toContain(unattributed.signature);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `admin-console-${size}`);
      await page.screenshot({
        path: `test/browser/screenshots/admin-console-${size}-full.png`,
        fullPage: true,
      });
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    },
    60_000,
  );

  test("the export links download the session as CSV with the session cookie", async () => {
    const context = await browser.newContext({ viewport: SIZES[0][1] });
    const { page } = await newPage(context);
    await signIn(page);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^insights-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    const text = await Bun.file((await download.path()) ?? "").text();
    // The header, 10 questions, 2 votes, 2 payments and 1 unattributed payment.
    expect(text.trim().split("\n")).toHaveLength(1 + 10 + 2 + 2 + 1);
    expect(text).toContain(`,${unattributed.payer},${unattributed.signature},memo-not-ours,`);
    for (const ip of VISITORS) expect(text).not.toContain(ip);
    await context.close();
  });
});
