/**
 * Keyboard-only use of the widget on the demo page: Ctrl+K opens with the focus in the question
 * box, Enter asks, Tab stays inside the dialog both ways, citations and thumbs work from the
 * keyboard (the vote reaches /metrics), Esc closes and the focus returns where it was; axe-core
 * finds no serious or critical violation in light or dark.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import {
  axeViolations,
  chromiumAvailable,
  launchBrowser,
  MOBILE,
  newPage,
  screenshot,
} from "./support/browser.ts";
import { waitForAnswer, widget } from "./support/widget-page.ts";

/** Where the keyboard focus is: inside the widget's shadow root when it is there. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const host = document.querySelector("docs-chat-widget");
    const inner = host?.shadowRoot?.activeElement;
    if (document.activeElement === host && inner)
      return {
        inWidget: true,
        inDialog: inner.closest("[role=dialog]") !== null,
        label: inner.getAttribute("aria-label") ?? inner.textContent?.trim() ?? inner.tagName,
      };
    return { inWidget: false, inDialog: false, label: document.activeElement?.textContent?.trim() ?? "" };
  });

const METRICS_TOKEN = "keyboard-metrics-token-0123456789";

describe.skipIf(!chromiumAvailable())("keyboard and accessibility", () => {
  let service: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    service = await startService({ env: { METRICS_TOKEN } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
  });

  test("open, ask, cite, vote, tab around and close with the keyboard only", async () => {
    const context = await browser.newContext({ colorScheme: "dark" });
    const { page, problems } = await newPage(context);
    await page.goto(`${service.url}/`);
    await page.keyboard.press("Tab"); // the page's first link
    const before = await focused(page);
    expect(before).toEqual({ inWidget: false, inDialog: false, label: "Getting started" });

    await page.keyboard.press("Control+k");
    expect(await focused(page)).toMatchObject({ inDialog: true, label: "Your question" });
    await page.keyboard.type("How do I pay for more questions?");
    await page.keyboard.press("Enter");
    const answer = await waitForAnswer(page, 0);
    expect(await page.locator("docs-chat-widget").getAttribute("theme")).toBe("dark");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "desktop-dark-keyboard");

    // Tab forward through everything: the focus never leaves the dialog and comes back round.
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const now = await focused(page);
      expect(now.inDialog).toBe(true);
      seen.add(now.label);
    }
    expect(seen).toContain("Close");
    expect(seen).toContain("Your question");
    expect(seen).toContain("Helpful");
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      expect((await focused(page)).inDialog).toBe(true);
    }

    // A citation link moves the focus to its source entry.
    const cite = answer.locator("a.cite").first();
    await cite.focus();
    await page.keyboard.press("Enter");
    const target = (await cite.getAttribute("href"))?.slice(1);
    expect(
      await page.evaluate(() => document.querySelector("docs-chat-widget")?.shadowRoot?.activeElement?.id),
    ).toBe(target);

    // Thumbs up from the keyboard: pressed, and counted by the service.
    await answer.getByRole("button", { name: "Helpful", exact: true }).focus();
    await page.keyboard.press("Enter");
    await answer.getByText("Thanks for the feedback").waitFor();
    expect(
      await answer.getByRole("button", { name: "Helpful", exact: true }).getAttribute("aria-pressed"),
    ).toBe("true");
    const metrics = await fetch(`${service.url}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(await metrics.text()).toContain('feedback_total{vote="up"} 1');

    await page.keyboard.press("Escape");
    expect(await widget(page).dialog.isVisible()).toBe(false);
    expect(await focused(page)).toEqual(before);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("the conversation lives in the tab: kept across a reload, not shared with a new tab, cleared on demand", async () => {
    const context = await browser.newContext({ viewport: MOBILE });
    const { page } = await newPage(context);
    const w = widget(page);
    await page.goto(`${service.url}/`);
    await w.launcher.click();
    await w.input.fill("What happens when Redis is down?");
    await w.input.press("Enter");
    await waitForAnswer(page, 0);
    await page.reload();
    await w.launcher.click();
    expect(await w.answers.count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    const other = await context.newPage();
    await other.goto(`${service.url}/`);
    await widget(other).launcher.click();
    expect(await widget(other).answers.count()).toBe(0);

    await page.locator("docs-chat-widget").getByRole("button", { name: "Clear conversation" }).click();
    expect(await w.answers.count()).toBe(0);
    await page.reload();
    await w.launcher.click();
    expect(await w.answers.count()).toBe(0);
    await context.close();
  });
});
