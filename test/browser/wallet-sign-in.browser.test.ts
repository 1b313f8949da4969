/**
 * Paid questions follow the wallet in the browser, offline on the embedded local
 * chain: a visitor pays with the demo wallet and the widget shows "Paid questions: N (wallet …)"
 * from its session; a second browser with the same demo wallet signs in ("Use my credits"), sees
 * the same balance, and spends are seen by both; signing out drops the session.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import { chromiumAvailable, launchBrowser, newPage, screenshot } from "./support/browser.ts";
import { ask, openWalletChoice, waitForAnswer, widget } from "./support/widget-page.ts";

const walletLine = (page: Page) => page.locator("docs-chat-widget .wallet-line");

/** The demo wallet's key as the widget keeps it for this service (a local-chain throwaway key). */
const demoKeyOf = (page: Page, apiUrl: string) =>
  page.evaluate((key) => localStorage.getItem(key), `docs-chat:demo-wallet:${apiUrl}`);

describe.skipIf(!chromiumAvailable())("the wallet's paid questions in the widget", () => {
  let service: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    service = await startService({ env: { RATE_LIMIT_FREE_QUERIES: "0" } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
  });

  test("pay in one browser, sign in with the same demo wallet in another: one balance, spends shared", async () => {
    const first: BrowserContext = await browser.newContext();
    const { page, problems } = await newPage(first);
    const w = await openWalletChoice(page, `${service.url}/`, "How do I pay for more questions?");
    await w.panel.getByRole("button", { name: "Pay with Demo wallet (local chain)" }).click();
    await w.panel.getByText("Payment verified: 10 questions added.").waitFor({ timeout: 30_000 });
    await waitForAnswer(page, 0);
    await walletLine(page)
      .getByText(/^Paid questions: 9 \(wallet \w{4}…\)/)
      .waitFor();
    await screenshot(page, "wallet-paid-first-browser");

    // The same wallet in a second browser (its key copied, as a wallet extension would hold it).
    const key = await demoKeyOf(page, service.url);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const second = await browser.newContext();
    await second.addInitScript(
      ([name, value]) => localStorage.setItem(name as string, value as string),
      [`docs-chat:demo-wallet:${service.url}`, key],
    );
    const other = await newPage(second);
    const v = widget(other.page);
    await other.page.goto(`${service.url}/`);
    await v.launcher.click();
    await walletLine(other.page).getByRole("button", { name: "Use my credits" }).click();
    await other.page
      .locator("docs-chat-widget .sign-in")
      .getByRole("button", { name: "Sign in with Demo wallet (local chain)" })
      .click();
    await walletLine(other.page)
      .getByText(/^Paid questions: 9 \(wallet \w{4}…\)/)
      .waitFor({ timeout: 20_000 });
    await screenshot(other.page, "wallet-signed-in-second-browser");

    // A question in the second browser is paid by the wallet; the first browser sees it.
    await ask(other.page, "How do I pay for more questions?");
    await waitForAnswer(other.page, 0);
    await walletLine(other.page)
      .getByText(/^Paid questions: 8 /)
      .waitFor();
    await page.reload();
    await w.launcher.click();
    await walletLine(page)
      .getByText(/^Paid questions: 8 /)
      .waitFor();

    // Signing out drops the session: the offer to sign in is back.
    await walletLine(other.page).getByRole("button", { name: "Sign out" }).click();
    await walletLine(other.page).getByRole("button", { name: "Use my credits" }).waitFor();
    expect(problems).toEqual([]);
    expect(other.problems).toEqual([]);
    await first.close();
    await second.close();
  }, 90_000);
});
