/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser), the widget bundles
 * built once, screenshots into test/browser/screenshots/ (git-ignored), axe-core in the page.
 * In CI a missing /usr/bin/chromium is an error; locally the browser tests skip, loudly.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { buildWidget } from "../../../src/bundles/build.ts";
import { REPO_ROOT } from "../../support/service-process.ts";

export const CHROMIUM = "/usr/bin/chromium";
export const SCREENSHOTS = join(REPO_ROOT, "test/browser/screenshots");

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;
/** Both sizes, named, for `test.each`. */
export const SIZES = [
  ["desktop", DESKTOP],
  ["mobile", MOBILE],
] as const;

/** Whether Chromium can be run here; throws in CI, where it is required. */
export const chromiumAvailable = (): boolean => {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error("chromium is required in CI: apt-get install -y chromium");
  console.warn(
    "\n*** /usr/bin/chromium not found: browser tests SKIPPED (apt-get install -y chromium) ***\n",
  );
  return false;
};

let built: Promise<unknown> | undefined;

/** Builds the bundles (once per test process) and starts a headless Chromium. */
export const launchBrowser = async (): Promise<Browser> => {
  built ??= buildWidget();
  await built;
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
};

/** A page that fails the test on any uncaught page error, with its console kept for messages. */
export const newPage = async (context: BrowserContext) => {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().includes("status of 40")) problems.push(message.text());
  });
  return { page, problems };
};

export const screenshot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
};

const require = createRequire(import.meta.url);
/** Evaluated through the DevTools protocol, so the demo page's strict CSP stays on for the widget. */
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Serious or critical axe-core violations in the page (the widget's open shadow root included). */
export const axeViolations = async (page: Page): Promise<ReadonlyArray<string>> => {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    interface Violation {
      readonly id: string;
      readonly impact: string | null;
      readonly nodes: ReadonlyArray<{ readonly target: unknown }>;
    }
    type Axe = {
      run: (context: unknown, options: unknown) => Promise<{ violations: ReadonlyArray<Violation> }>;
    };
    const axe = (window as unknown as { axe: Axe }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${violation.impact} ${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
      );
  });
};
