/**
 * Answers as the widget renders them, from a language model speaking Groq's protocol (the
 * loopback fake, driven by the service's real groq-sdk): a hostile answer renders inert,
 * multibyte text arrives whole, code blocks copy, and Stop ends a streaming answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import { chromiumAvailable, launchBrowser, newPage, screenshot } from "./support/browser.ts";
import { ask, waitForAnswer, widget } from "./support/widget-page.ts";

const HOSTILE = [
  "Here is [a link](javascript:window.__pwned='link') and [data](data:text/html,<script>alert(1)</script>)",
  "and [the guide](https://docs.example.com/guide) [1], [relative](/docs/page) [2].",
  "",
  "<img src=x onerror=\"window.__pwned='img'\">",
  "",
  "<script>window.__pwned='script'</script>",
  "",
  "Inline <a href=\"javascript:window.__pwned='a'\">raw link</a> and <b onmouseover=\"window.__pwned='b'\">bold</b>.",
  "",
  '![tracker](https://evil.example/pixel.png) <iframe src="https://evil.example"></iframe>',
  "",
  "Unicode survives: café ☕ 日本語 🎉 Ω≈ç√ [3].",
  "",
  "```js",
  "const answer = 42; // <b>not bold</b>",
  "```",
].join("\n");

describe.skipIf(!chromiumAvailable())("answers in the widget", () => {
  let llm: FakeGroq;
  let service: ServiceProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    llm = await startFakeGroq();
    service = await startService({
      env: { LLM_API_KEY: llm.apiKey, LLM_BASE_URL: llm.baseUrl, RATE_LIMIT_FREE_QUERIES: "10" },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.url });
    ({ page, problems } = await newPage(context));
    await page.goto(`${service.url}/`);
    await widget(page).launcher.click();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.dispose();
    await llm?.stop();
  });

  test("a hostile answer renders inert: no script, no handler, no javascript: or data: link, no image", async () => {
    llm.script({ kind: "answer", text: HOSTILE });
    // A question the demo docs cover: an off-topic one would be declined before the model.
    const index = await ask(page, "What happens when Redis is down?");
    const answer = await waitForAnswer(page, index);
    const inspected = await answer.evaluate((article) => ({
      dangerous: article.querySelectorAll(
        "script, img, iframe, object, embed, [onerror], [onmouseover], [style]",
      ).length,
      hrefs: [...article.querySelectorAll("a[href]")].map((a) => a.getAttribute("href") ?? ""),
      text: article.textContent ?? "",
      pwned: (window as unknown as { __pwned?: string }).__pwned,
    }));
    expect(inspected.dangerous).toBe(0);
    expect(inspected.pwned).toBeUndefined();
    for (const href of inspected.hrefs) expect(href).toMatch(/^(https?:\/\/|#dc-a)/);
    expect(inspected.hrefs).toContain("https://docs.example.com/guide");
    expect(inspected.hrefs).toContain(`${service.url}/docs/page`);
    // What was refused is shown as text, not dropped silently and not executed.
    expect(inspected.text).toContain("a link");
    expect(inspected.text).toContain("<img src=x onerror=");
    expect(inspected.text).toContain("<script>window.__pwned='script'</script>");
    expect(inspected.text).toContain("[image: tracker]");
    expect(inspected.text).toContain("Unicode survives: café ☕ 日本語 🎉 Ω≈ç√");
    const guide = answer.getByRole("link", { name: "the guide" });
    expect(await guide.getAttribute("target")).toBe("_blank");
    expect(await guide.getAttribute("rel")).toContain("noopener");
    await answer.hover();
    await page.mouse.move(5, 5);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();

    // Code blocks: text only, with a working copy button.
    expect(await answer.locator(".code code").textContent()).toBe("const answer = 42; // <b>not bold</b>");
    await answer.getByRole("button", { name: "Copy code" }).click();
    await answer.getByRole("button", { name: "Copy code" }).getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      "const answer = 42; // <b>not bold</b>",
    );
    await screenshot(page, "desktop-hostile-answer");
    expect(problems).toEqual([]);
  }, 30_000);

  test("Stop ends a streaming answer: what arrived stays, marked stopped, and the visitor can ask again", async () => {
    llm.script({ kind: "stall-mid-stream", deltas: ["A partial ", "answer that never ends "] });
    const w = widget(page);
    const index = await ask(page, "How is a client identified?");
    const answer = w.answers.nth(index);
    await answer.getByText("A partial answer that never ends").waitFor();
    expect(await answer.getAttribute("aria-busy")).toBe("true");
    const stop = page.locator("docs-chat-widget form").getByRole("button", { name: "Stop" });
    await stop.click();
    await answer.getByText("Stopped.").waitFor();
    expect(await answer.getAttribute("aria-busy")).toBe("false");
    await page.locator("docs-chat-widget form").getByRole("button", { name: "Send" }).waitFor();
    llm.script({ kind: "answer", text: "Back to normal [1]." });
    const next = await ask(page, "How do I pay for more questions?");
    expect(await (await waitForAnswer(page, next)).textContent()).toContain("Back to normal");
  }, 30_000);
});
