/**
 * HTML ingestion keeps the main text and headings of generated docs pages (a hand-written page,
 * Sphinx, DocBook, MkDocs, Docusaurus) and drops page furniture, scripts and permalinks.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { chunkDocument } from "../../adapters/docs-ingest/document.ts";
import { parseHtml } from "../../adapters/docs-ingest/html.ts";

const fixture = (path: string) => readFileSync(`test/fixtures/${path}`, "utf8");
const everything = (chunks: ReturnType<typeof chunkDocument>) =>
  chunks.map((c) => `${c.title}\n${c.heading}\n${c.text}`).join("\n");

describe("html: a hand-written page", () => {
  const chunks = chunkDocument("faq.html", fixture("docs/site/faq.html"), "https://docs.example.com");

  test("drops scripts, styles, navigation, header and footer", () => {
    for (const unwanted of [
      "trackingSecret",
      "do-not-index",
      "color: red",
      "Navigation link text",
      "Site header banner",
      "Copyright footer",
    ])
      expect(everything(chunks)).not.toContain(unwanted);
  });

  test("h1 is the title and never repeats in the heading path; element ids are anchors", () => {
    expect(chunks.map((c) => c.heading)).toEqual(["", "Is Widgetron free?", "How do I report a bug?"]);
    expect(chunks.every((c) => c.title === "Frequently asked questions")).toBe(true);
    expect(chunks.map((c) => c.url)).toEqual([
      "https://docs.example.com/faq.html",
      "https://docs.example.com/faq.html#licence",
      "https://docs.example.com/faq.html#how-do-i-report-a-bug",
    ]);
  });

  test("decodes entities, keeps <pre> as a code block and list items as lines", () => {
    expect(chunks[0]!.text).toBe("Answers to common questions about Widgetron & its licence.");
    const bug = chunks[2]!.text;
    expect(bug).toContain("```\nwidgetron --diagnostics > report.txt\nwidgetron --version\n```");
    expect(bug).toContain("- Say what you expected.\n\n- Say what happened instead.");
  });

  test("title: h1, else <title>, else the first heading, else the file name", () => {
    expect(parseHtml("<title>Page &amp; co</title><p>x</p>", "p.html").title).toBe("Page & co");
    expect(parseHtml("<body><h3>Only heading</h3><p>x</p></body>", "p.html").title).toBe("Only heading");
    expect(parseHtml("<p>just text</p>", "bare.html").title).toBe("bare.html");
  });

  test("survives unclosed tags and stray brackets", () => {
    const doc = parseHtml("<main><h2>Broken<p>a < b and c > d<pre>never closed", "x.html");
    expect(doc.sections.length).toBeGreaterThan(0);
    expect(JSON.stringify(doc)).toContain("never closed");
  });
});

describe("html: Sphinx", () => {
  const chunks = chunkDocument(
    "library/asyncio-task.html",
    fixture("html/sphinx-asyncio.html"),
    "https://w.example",
  );

  test("the role=main body only: no related bar, sidebar, footer or ¶ permalinks", () => {
    const all = everything(chunks);
    for (const unwanted of ["Navigation", "next", "Sidebar entry", "Copyright footer", "¶", "searchtools"])
      expect(all).not.toContain(unwanted);
  });

  test("API entries (dt with an id) are sections named by their signature, anchored by their id", () => {
    const gather = chunks.find((c) => c.heading.endsWith("asyncio.gather(*aws, return_exceptions=False)"));
    expect(gather?.heading).toBe(
      "Running Tasks Concurrently > awaitable asyncio.gather(*aws, return_exceptions=False)",
    );
    expect(gather?.url).toBe("https://w.example/library/asyncio-task.html#asyncio.gather");
    expect(gather?.text).toContain("If return_exceptions is `False` (default)");
    expect(gather?.text).toContain("```\nawait asyncio.gather(a(), b())\n```");
    const waitFor = chunks.find((c) => c.heading === "Timeouts > asyncio.wait_for(aw, timeout)");
    expect(waitFor?.text).toBe("Wait for the aw awaitable to complete with a timeout.");
  });

  test("text after an entry list belongs to the section that holds the list again", () => {
    const after = chunks.find((c) => c.text.includes("Tasks that are gathered"));
    expect(after?.heading).toBe("Running Tasks Concurrently");
    expect(chunks.every((c) => c.title === "Coroutines and Tasks")).toBe(true);
  });
});

describe("html: DocBook (PostgreSQL style)", () => {
  const chunks = chunkDocument("sql-upsert.html", fixture("html/docbook-insert.html"));

  test("a page without h1 takes its <title>; the heading saying the same opens no section", () => {
    expect(chunks.every((c) => c.title === "UPSERT")).toBe(true);
    expect(chunks[0]!.heading).toBe("");
    expect(chunks[0]!.text).toBe("UPSERT — insert rows, or update them on conflict");
  });

  test("navigation header and footer are gone; inline code keeps its text in backticks", () => {
    const all = everything(chunks);
    for (const unwanted of ["Prev", "Next", "PREVIOUS PAGE TITLE", "Home"])
      expect(all).not.toContain(unwanted);
    expect(all).toContain("Use `RETURNING` to see the rows written.");
  });

  test("variable-list entries with ids are sections; table rows become lines", () => {
    expect(chunks.map((c) => c.heading)).toContain("Parameters > ON CONFLICT DO UPDATE");
    const update = chunks.find((c) => c.heading === "Parameters > ON CONFLICT DO UPDATE");
    expect(update?.url).toBe("");
    expect(update?.text).toBe("Updates the existing row that conflicts with the row proposed for insertion.");
    const rows = chunks.find((c) => c.text.includes("| Mode | Effect |"));
    expect(rows?.text).toContain("| Mode | Effect |\n| `strict` | fails on conflict |");
    expect(rows?.heading).toBe("Parameters");
  });
});

describe("html: MkDocs, Docusaurus, VitePress and plain pages", () => {
  const cases = [
    {
      name: "MkDocs Material: the article only, no header, sidebars, source date or footer links",
      file: "html/mkdocs-page.html",
      unwanted: ["header navigation", "Primary sidebar", "Last update", "Previous Installation", "¶"],
      places: [
        ["Configuration", ""],
        ["Configuration", "Cache"],
      ],
      first: "Set `--base-url` to the public address of your docs.",
    },
    {
      name: "Docusaurus: the doc body only, no breadcrumbs, TOC, edit link, pagination or hash links",
      file: "html/docusaurus-page.html",
      unwanted: [
        "navbar",
        "sidebar entry",
        "Home › Guides",
        "Edit this page",
        "Previous «",
        "On this page",
        "Copyright",
      ],
      places: [
        ["Retries", ""],
        ["Retries", "Backoff"],
      ],
      first: "Call `client.retry(fn, { attempts: 3 })` to retry a failing call.",
    },
    {
      name: "VitePress: the vp-doc body only, no nav, sidebar, outline, edit link, last-updated, pager or anchors",
      file: "html/vitepress-page.html",
      unwanted: [
        "Guide Reference",
        "Return to top",
        "Sidebar group",
        "On this page",
        "Edit this page",
        "Last updated",
        "Previous page",
        "Copy Code",
        "Copyright",
        "\u200b",
      ],
      places: [
        ["Deploying", ""],
        ["Deploying", "Base path"],
      ],
      first: "Run `widget build` to write the static files to `dist/`.",
    },
    {
      name: "plain HTML: the content, without the site's top bar, sidebar, edit link and bottom line",
      file: "html/plain-page.html",
      unwanted: ["Example Handbook", "Sidebar:", "Edit this page", "Last changed", "About this site"],
      places: [
        ["Backups", ""],
        ["Backups", "Restoring"],
      ],
      first: "Run `handbook dump` every night; it writes one file per database.",
    },
  ];
  for (const { name, file, unwanted, places, first } of cases)
    test(name, () => {
      const chunks = chunkDocument("page.html", fixture(file));
      const all = everything(chunks);
      for (const text of unwanted) expect(all).not.toContain(text);
      expect(chunks.map((c) => [c.title, c.heading])).toEqual(places);
      expect(chunks[0]!.text).toBe(first);
      expect(chunks.every((c) => c.url === "")).toBe(true);
    });
});

describe("html: permalink marks and aggregate pages", () => {
  test("a heading's own link with a lone mark (#, ¶, §) is dropped; real links in headings stay", () => {
    const doc = parseHtml(
      '<main><h1>Crypto<a class="mark" href="#crypto">#</a></h1><h2><a href="#hash">Class: <code>Hash</code></a><span><a href="#x">§</a></span></h2><p>Text.</p></main>',
      "c.html",
    );
    expect(doc.title).toBe("Crypto");
    expect(doc.sections.map((s) => s.headings)).toEqual([["Class: Hash"]]);
  });
});
