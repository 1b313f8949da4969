/** HTML ingestion keeps the main text and headings and drops page furniture and scripts. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { chunkDocument } from "../../adapters/docs-ingest/document.ts";
import { decodeEntities, parseHtml } from "../../adapters/docs-ingest/html.ts";

const faq = readFileSync("test/fixtures/docs/site/faq.html", "utf8");

describe("html", () => {
  const chunks = chunkDocument("faq.html", faq, "https://docs.example.com");
  const everything = chunks.map((c) => `${c.heading}\n${c.text}`).join("\n");

  test("drops scripts, styles, navigation, header and footer", () => {
    for (const unwanted of [
      "trackingSecret",
      "do-not-index",
      "color: red",
      "Navigation link text",
      "Site header banner",
      "Copyright footer",
    ])
      expect(everything).not.toContain(unwanted);
  });

  test("keeps headings as the heading path, h1 as title, element ids as anchors", () => {
    expect(chunks.map((c) => c.heading)).toEqual([
      "Frequently asked questions",
      "Frequently asked questions > Is Widgetron free?",
      "Frequently asked questions > How do I report a bug?",
    ]);
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

  test("falls back to <title>, then to the file name, for the title", () => {
    expect(
      parseHtml("<html><head><title>Page &amp; co</title></head><body><p>x</p></body></html>", "p.html")
        .title,
    ).toBe("Page & co");
    expect(parseHtml("<p>just text</p>", "bare.html").title).toBe("bare.html");
  });

  test("survives unclosed tags and stray brackets", () => {
    const doc = parseHtml("<main><h2>Broken<p>a < b and c > d<pre>never closed", "x.html");
    expect(doc.sections.length).toBeGreaterThan(0);
    expect(JSON.stringify(doc)).toContain("never closed");
  });

  test("decodes numeric and named references, leaves unknown ones alone", () => {
    expect(decodeEntities("&#65;&#x42;&lt;&gt;&quot;&nbsp;&bogus;&#99999999;")).toBe(
      'AB<>" &bogus;&#99999999;',
    );
  });
});
