/**
 * The crawler's rules on a small loopback site: robots.txt Disallow is honoured, a redirect to
 * another origin is refused (and that origin never asked), non-pages are skipped and counted,
 * duplicates and canonical URLs fold, the size and redirect caps hold, private addresses are
 * refused unless allowed, an llms.txt names the pages, and a failed sync leaves the previous
 * index whole and serving.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as Effect from "effect/Effect";
import type { AppConfig } from "../../core/config/config.ts";
import { Retriever } from "../../core/ports/retrieval.ts";
import { type SiteSyncOptions, syncSite } from "../../src/docs-sync/site-sync.ts";
import { retrievalLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { type StaticSite, startStaticSite } from "../support/static-site.ts";

const page = (title: string, body: string, head = "") =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body>
  <nav><a href="/docs/">Home</a> <a href="/docs/alpha.html">Alpha</a></nav>
  <main><h1>${title}</h1>${body}</main><footer>Copyright footer text</footer></body></html>`;

const PAGES: Readonly<Record<string, string>> = {
  "docs/index.html": page(
    "Handbook",
    `<p>Start here.</p><p><a href="alpha.html">Alpha</a> <a href="beta.html">Beta</a>
     <a href="private/secret.html">Secret</a> <a href="moved.html">Moved</a> <a href="manual.pdf">PDF</a>
     <a href="report">Report</a> <a href="copy.html">Copy</a> <a href="alias.html">Alias</a>
     <a href="huge.html">Huge</a> <a href="loop.html">Loop</a> <a href="/outside.html">Outside</a></p>`,
  ),
  "docs/alpha.html": page(
    "Alpha",
    "<h2 id='setup'>Setup</h2><p>The quokka setting controls alpha behaviour.</p>",
  ),
  "docs/copy.html": page(
    "Alpha",
    "<h2 id='setup'>Setup</h2><p>The quokka setting controls alpha behaviour.</p>",
  ),
  "docs/beta.html": page("Beta", "<p>Beta explains the wombat option in detail.</p>"),
  "docs/alias.html": page(
    "Beta again",
    "<p>Another address for beta.</p>",
    `<link rel="canonical" href="/docs/beta.html">`,
  ),
  "docs/private/secret.html": page("Secret", "<p>Never to be indexed: platypus.</p>"),
  "docs/huge.html": page("Huge", `<p>${"numbat ".repeat(20_000)}</p>`),
  "outside.html": page("Outside", "<p>Not under the start path.</p>"),
};

const LOOPBACK = { allowPrivate: true, delayMs: 0, maxBytes: 64 * 1024 } as const;

let work: string;
let site: StaticSite;
let elsewhere: StaticSite;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "docs-site-rules-"));
  for (const [path, html] of Object.entries(PAGES)) {
    mkdirSync(dirname(join(work, "site", path)), { recursive: true });
    writeFileSync(join(work, "site", path), html);
  }
  mkdirSync(join(work, "other"));
  writeFileSync(join(work, "other", "landing.html"), page("Elsewhere", "<p>Another origin.</p>"));
  elsewhere = startStaticSite({ root: join(work, "other"), sitemap: "none" });
  site = startStaticSite({
    root: join(work, "site"),
    sitemap: "none",
    robots: "User-agent: *\nDisallow: /docs/private/\n",
  });
  site.route("/docs/moved.html", () => Response.redirect(`${elsewhere.url}/landing.html`, 302));
  site.route("/docs/loop.html", () => Response.redirect("/docs/loop.html", 302));
  site.route(
    "/docs/manual.pdf",
    () => new Response("%PDF-1.4", { headers: { "Content-Type": "application/pdf" } }),
  );
  site.route(
    "/docs/report",
    () => new Response("%PDF-1.4", { headers: { "Content-Type": "application/pdf" } }),
  );
});
afterAll(() => {
  site.stop();
  elsewhere.stop();
  rmSync(work, { recursive: true, force: true });
});

const configFor = (name: string): AppConfig =>
  defaultConfig({ vector: { kind: "local", indexPath: join(work, name, "index.bin") } });

const sync = (config: AppConfig, url: string, options: SiteSyncOptions = { crawl: LOOPBACK }) =>
  syncSite(config, url, options);

const sourcesOf = (config: AppConfig) =>
  Effect.runPromise(
    Effect.flatMap(Retriever, (retriever) => retriever.listing).pipe(
      Effect.map((listing) => [...new Set(listing.chunks.map((chunk) => chunk.source))].sort()),
      Effect.provide(withSettings(config, retrievalLayer)),
    ),
  );

describe("a crawl of a small site over loopback", () => {
  test("robots.txt, other origins, non-pages, duplicates, canonical URLs and the caps", async () => {
    const config = configFor("crawl");
    const outcome = await sync(config, `${site.url}/docs/`);
    if (outcome._tag === "Failure") throw new Error(JSON.stringify(outcome.failure));
    const report = outcome.success;
    expect(report.via).toBe("crawl");
    expect(await sourcesOf(config)).toEqual(["alpha.html", "beta.html", "index.html"]);
    // robots.txt Disallow: never requested.
    expect(site.counts.requests.get("/docs/private/secret.html")).toBeUndefined();
    expect(report.skipped.robots).toBe(1);
    // A redirect to another origin is refused before that origin is asked anything.
    expect(elsewhere.counts.requests.size).toBe(0);
    const kinds = report.errors.map((error) => [error.failure, new URL(error.url).pathname]).sort();
    expect(kinds).toEqual([
      ["off-origin-redirect", "/docs/moved.html"],
      ["too-large", "/docs/huge.html"],
      ["too-many-redirects", "/docs/loop.html"],
    ]);
    // The PDF named as a file is never requested; the one behind an extension-less link is skipped by type.
    expect(site.counts.requests.get("/docs/manual.pdf")).toBeUndefined();
    expect(report.skipped.notPages).toBe(2);
    // copy.html repeats alpha.html; alias.html declares beta.html canonical.
    expect(report.skipped.duplicates).toBe(2);
    expect(site.counts.requests.get("/outside.html")).toBeUndefined();
  });

  test("navigation and footers are not indexed; a passage cites its page URL and heading anchor", async () => {
    const config = configFor("crawl");
    const listing = await Effect.runPromise(
      Effect.flatMap(Retriever, (retriever) => retriever.listing).pipe(
        Effect.provide(withSettings(config, retrievalLayer)),
      ),
    );
    const alpha = listing.chunks.find((chunk) => chunk.source === "alpha.html");
    expect(alpha?.url).toBe(`${site.url}/docs/alpha.html#setup`);
    expect(listing.chunks.some((chunk) => /Copyright footer|Home Alpha/.test(chunk.text))).toBe(false);
  });

  test("private and loopback addresses are refused unless allowed: the sync fails and writes nothing", async () => {
    const config = configFor("refused");
    const outcome = await sync(config, `${site.url}/docs/`, { crawl: { ...LOOPBACK, allowPrivate: false } });
    expect(outcome._tag).toBe("Failure");
    if (outcome._tag === "Failure") expect(outcome.failure).toMatchObject({ failure: "private-address" });
  });

  test("an llms.txt names the pages to read", async () => {
    site.route(
      "/docs/llms.txt",
      () =>
        new Response(
          "# Handbook\n\n> The handbook.\n\n- [Alpha](alpha.html): setup\n- [Beta](/docs/beta.html)\n",
          {
            headers: { "Content-Type": "text/plain" },
          },
        ),
    );
    const config = configFor("llms");
    const outcome = await sync(config, `${site.url}/docs/llms.txt`);
    if (outcome._tag === "Failure") throw new Error(JSON.stringify(outcome.failure));
    expect(outcome.success.via).toBe("llms.txt");
    expect(await sourcesOf(config)).toEqual(["alpha.html", "beta.html"]);
  });

  test("a failed sync leaves the previous index whole and serving", async () => {
    const config = configFor("kept");
    const first = await sync(config, `${site.url}/docs/`);
    expect(first._tag).toBe("Success");
    const before = readFileSync(join(work, "kept", "index.bin"));
    const gone = startStaticSite({ root: join(work, "other"), sitemap: "none" });
    const unreachable = gone.url;
    gone.stop();
    const failed = await sync(config, `${unreachable}/docs/`, { crawl: LOOPBACK, collection: "127.0.0.1" });
    expect(failed._tag).toBe("Failure");
    if (failed._tag === "Failure") expect(failed.failure).toMatchObject({ failure: "unreachable" });
    expect(readFileSync(join(work, "kept", "index.bin")).equals(before)).toBe(true);
    const answer = await Effect.runPromise(
      Effect.flatMap(Retriever, (retriever) => retriever.retrieve("wombat option", 5)).pipe(
        Effect.provide(withSettings(config, retrievalLayer)),
      ),
    );
    expect(answer.chunks[0]?.source).toBe("beta.html");
  });
});
