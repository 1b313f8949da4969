/**
 * Embedding settings, on pages of another origin than the service (a second server on a free
 * port): CHATBOT_DISABLED renders nothing and calls nothing; CHATBOT_API_URL points the widget
 * at the service, which allows that origin by CORS (and refuses an origin it does not list);
 * the data- attributes set the title, placeholder, theme, position, accent and welcome.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { WIDGET_DIST } from "../../src/bundles/paths.ts";
import { freePort } from "../support/free-port.ts";
import { type ServiceProcess, startService } from "../support/service-process.ts";
import { chromiumAvailable, launchBrowser, newPage, screenshot } from "./support/browser.ts";
import { ask, waitForAnswer, widget } from "./support/widget-page.ts";

const page = (head: string, attributes = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other site</title>${head}</head>
<body><h1>Another docs site</h1><p>Its own styles must not change the widget.</p>
<style>button { background: red !important; font-size: 40px; } p { color: green; }</style>
<script src="/widget.js" defer ${attributes}></script></body></html>`;

describe.skipIf(!chromiumAvailable())("embedding settings", () => {
  let service: ServiceProcess;
  let site: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let siteOrigin: string;
  const serviceCalls: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    const sitePort = await freePort();
    siteOrigin = `http://127.0.0.1:${sitePort}`;
    service = await startService({ env: { ALLOWED_ORIGINS: siteOrigin } });
    const pages: Record<string, string> = {
      "/disabled.html": page("<script>window.CHATBOT_DISABLED = true;</script>"),
      "/other.html": page(
        `<script>window.CHATBOT_API_URL = ${JSON.stringify(`${service.url}/`)};</script>`,
        'data-title="Help center" data-placeholder="Type your question" data-theme="dark" data-position="left" data-accent="#d6246e" data-welcome="Welcome to the help center." data-examples="First example|Second example"',
      ),
    };
    site = Bun.serve({
      port: sitePort,
      fetch: (request) => {
        const path = new URL(request.url).pathname;
        const html = pages[path];
        if (html !== undefined) return new Response(html, { headers: { "Content-Type": "text/html" } });
        if (path === "/widget.js" || path === "/widget-pay.js")
          return new Response(readFileSync(join(WIDGET_DIST, path.slice(1))), {
            headers: { "Content-Type": "text/javascript" },
          });
        return new Response("not found", { status: 404 });
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    site?.stop(true);
    await service?.dispose();
  });

  test("CHATBOT_DISABLED: no element, nothing drawn, no call to the service", async () => {
    const context = await browser.newContext();
    const { page: tab, problems } = await newPage(context);
    tab.on("request", (request) => {
      if (request.url().startsWith(service.url)) serviceCalls.push(request.url());
    });
    await tab.goto(`${siteOrigin}/disabled.html`);
    await tab.waitForLoadState("networkidle");
    expect(await tab.locator("docs-chat-widget").count()).toBe(0);
    await tab.keyboard.press("Control+k");
    expect(await tab.locator("docs-chat-widget").count()).toBe(0);
    expect(serviceCalls).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("CHATBOT_API_URL on another origin, allowed by CORS; data- attributes applied; page styles kept out", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page: tab, problems } = await newPage(context);
    const w = widget(tab);
    await tab.goto(`${siteOrigin}/other.html`);
    await w.launcher.waitFor();
    expect(await w.launcher.textContent()).toContain("Help center");
    const host = tab.locator("docs-chat-widget");
    expect(await host.getAttribute("theme")).toBe("dark");
    const launcher = await w.launcher.evaluate((button) => {
      const style = getComputedStyle(button);
      return {
        background: style.backgroundColor,
        fontSize: style.fontSize,
        left: button.getBoundingClientRect().left,
      };
    });
    expect(launcher.background).toBe("rgb(214, 36, 110)"); // the accent, not the page's red
    expect(launcher.fontSize).not.toBe("40px");
    expect(launcher.left).toBeLessThan(100); // bottom left
    await w.launcher.click();
    expect(await w.input.getAttribute("placeholder")).toBe("Type your question");
    await tab.locator("docs-chat-widget .welcome").getByText("Welcome to the help center.").waitFor();
    await tab.locator("docs-chat-widget .examples").getByRole("button", { name: "Second example" }).waitFor();
    await ask(tab, "How do I pay for more questions?");
    await waitForAnswer(tab, 0);
    await w.quota.getByText("Questions left: 2").waitFor();
    await screenshot(tab, "settings-dark-left-accent");
    expect(problems).toEqual([]);
    await context.close();
  });

  test("an origin the service does not allow gets no answer (CORS enforced), and says so", async () => {
    const context = await browser.newContext();
    const { page: tab } = await newPage(context);
    const w = widget(tab);
    // localhost and 127.0.0.1 are different origins: only the latter is allowed.
    await tab.goto(`${siteOrigin.replace("127.0.0.1", "localhost")}/other.html`);
    await w.launcher.click();
    await ask(tab, "Anything?");
    await w.errors.getByText("The assistant cannot be reached").waitFor();
    expect(await w.answers.count()).toBe(0);
    await context.close();
  });
});
