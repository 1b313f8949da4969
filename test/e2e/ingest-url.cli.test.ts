/**
 * `npm run ingest -- <url>` as a person runs it (not on a terminal): plain progress lines,
 * one line per kind of problem, the summary; exit 1 with one line when the sync cannot run.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../support/service-process.ts";
import { type StaticSite, startStaticSite } from "../support/static-site.ts";

let work: string;
let site: StaticSite;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "ingest-url-"));
  mkdirSync(join(work, "site", "docs", "drafts"), { recursive: true });
  writeFileSync(
    join(work, "site", "docs", "index.html"),
    page(
      "Guide",
      '<p><a href="setup.html">Setup</a> <a href="moved.html">Moved</a> <a href="drafts/a.html">Draft</a></p>',
    ),
  );
  writeFileSync(
    join(work, "site", "docs", "setup.html"),
    page("Setup", "<p>Install the echidna package first.</p>"),
  );
  writeFileSync(join(work, "site", "docs", "drafts", "a.html"), page("Draft", "<p>Not ready.</p>"));
  site = startStaticSite({
    root: join(work, "site"),
    sitemap: "none",
    robots: "User-agent: *\nDisallow: /docs/drafts/\n",
  });
  site.route("/docs/moved.html", () => Response.redirect("https://elsewhere.example/moved.html", 301));
});
afterAll(() => {
  site.stop();
  rmSync(work, { recursive: true, force: true });
});

const ingestCli = async (args: ReadonlyArray<string>) => {
  const proc = Bun.spawn([process.execPath, join(REPO_ROOT, "src/cli/ingest.ts"), ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? "", INDEX_PATH: join(work, "data", "index.bin") },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
};

test("progress, one line per kind of problem, and the summary", async () => {
  const { code, stdout, stderr } = await ingestCli([`${site.url}/docs/`, "--allow-private", "--delay", "0"]);
  expect(code).toBe(0);
  expect(stderr).toContain("3/3 pages: 2 changed, 0 unchanged, 1 failed");
  expect(stdout).toContain(
    `1 page: redirected to another origin (refused), e.g. ${site.url}/docs/moved.html (redirected to https://elsewhere.example`,
  );
  expect(stdout).toContain(
    `1 pages disallowed by robots.txt, not fetched, e.g. ${site.url}/docs/drafts/a.html`,
  );
  expect(stdout).toMatch(
    /Synced 2 pages \(found by crawl\) as "127\.0\.0\.1" into .*: 2 downloaded, 2 changed, 0 removed, 1 errors/,
  );
});

test("a sync that cannot run exits 1 with one line, and the index is unchanged", async () => {
  const { code, stderr } = await ingestCli([`${site.url}/docs/`, "--delay", "0"]);
  expect(code).toBe(1);
  expect(stderr.trim()).toMatch(
    /^ingest: sync failed, the index is unchanged \(.*private or loopback address/,
  );
});
