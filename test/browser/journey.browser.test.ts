/**
 * The visitor's journey on the real service (a process on its embedded local chain, as after
 * `npm start`), in Chromium, at desktop and mobile sizes: three streamed answers with sources,
 * the fourth question gets the payment panel, 0.01 USDC paid with a Wallet Standard test wallet,
 * the widget waits, claims, answers the question, and shows 9 questions left. Screenshots of
 * each state; axe-core finds no serious or critical violation in any of them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import {
  axeViolations,
  chromiumAvailable,
  DESKTOP,
  launchBrowser,
  MOBILE,
  newPage,
  screenshot,
} from "./support/browser.ts";
import { ask, installTestWallet, localnetOf, waitForAnswer, widget } from "./support/widget-page.ts";

const QUESTIONS = [
  "How do I pay for more questions?",
  "How is a client identified?",
  "What happens when Redis is down?",
];

describe.skipIf(!chromiumAvailable())("the visitor's journey", () => {
  let browser: Browser;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(services.map((service) => service.dispose()));
  });

  // Each size gets its own service: the browser's address is the visitor's identity, and both
  // sizes need a visitor with fresh free questions.
  test.each([
    ["desktop", DESKTOP],
    ["mobile", MOBILE],
  ] as const)(
    "%s: ask, get the payment panel, pay 0.01 with a wallet, continue",
    async (size, viewport) => {
      const service = await startService({ env: {} });
      services.push(service);
      const chain = await localnetOf(service);
      const context = await browser.newContext({ viewport });
      const sent = await installTestWallet(context, {
        secretKey: chain.payerSecretKey,
        rpcUrl: chain.rpcUrl,
      });
      const { page, problems } = await newPage(context);
      const streamed: string[] = [];
      page.on("response", (response) => {
        if (response.url().endsWith("/api/chat")) streamed.push(response.headers()["content-type"] ?? "");
      });
      const w = widget(page);
      await page.goto(`${service.url}/`);
      await w.launcher.waitFor();
      await screenshot(page, `${size}-1-launcher`);
      expect(await axeViolations(page)).toEqual([]);

      await w.launcher.click();
      await expect(w.dialog.isVisible()).resolves.toBe(true);
      for (const [i, question] of QUESTIONS.entries()) {
        await ask(page, question);
        const answer = await waitForAnswer(page, i);
        expect((await answer.locator(".body").textContent())?.length).toBeGreaterThan(20);
        // Each [n] in the text links to a listed source.
        const cites = await answer
          .locator("a.cite")
          .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
        for (const href of cites) expect(await answer.locator(href ?? "#none").count()).toBe(1);
        expect(await answer.locator(".sources li").count()).toBeGreaterThan(0);
        if (i === 0) {
          await answer.evaluate((article) => article.scrollIntoView({ block: "start" }));
          await screenshot(page, `${size}-2-answer-with-sources`);
        }
      }
      expect(streamed).toHaveLength(3);
      expect(streamed.every((type) => type.startsWith("text/event-stream"))).toBe(true);
      await w.quota.getByText("Questions left: 0").waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // A question the demo docs cover, so it is answered (and charged) once paid for.
      await ask(page, "How do I pay with USDC on Solana?");
      await w.panel.waitFor();
      expect(await w.panel.locator(".amounts label").allInnerTexts()).toEqual([
        "0.01 USDC\n10 questions",
        "0.05 USDC\n50 questions",
        "0.10 USDC\n100 questions",
        "0.50 USDC\n500 questions",
        "1.00 USDC\n1000 questions",
      ]);
      await w.panel.getByRole("button", { name: "Browser wallet" }).click();
      await screenshot(page, `${size}-3-payment-panel`);
      expect(await axeViolations(page)).toEqual([]);

      const balanceBefore = await w.panel.getByRole("button", { name: "Pay with Test wallet" }).count();
      expect(balanceBefore).toBe(1);
      await w.panel.getByRole("button", { name: "Pay with Test wallet" }).click();
      await w.panel.getByText("Transfer sent").waitFor();
      await w.panel.getByText("Payment verified: 10 questions added.").waitFor({ timeout: 30_000 });
      expect(sent).toHaveLength(1);
      // The question that needed payment is answered, and one of the ten is spent on it.
      const answer = await waitForAnswer(page, 3);
      expect(await answer.locator(".body").textContent()).not.toBe("");
      await w.quota.getByText("Questions left: 9").waitFor();
      expect(await w.quota.textContent()).toContain("0 free · 9 paid");
      await screenshot(page, `${size}-4-paid-and-answered`);
      expect(problems).toEqual([]);
      await context.close();
    },
    90_000,
  );
});
