/** Pages rebuilt from listed chunks: sections in order, the ingest's overlap taken out once. */
import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../adapters/docs-ingest/document.ts";
import { docPages, withoutOverlap } from "../../core/doc-pages.ts";

const sentences = Array.from(
  { length: 30 },
  (_, i) => `Sentence number ${i + 1} explains option${i + 1} in a few more words than needed.`,
);
const markdown = `# Guide\n\nIntro line.\n\n## Long section\n\n${sentences.join(" ")}\n\n## Short\n\nThe end.\n`;

describe("docPages", () => {
  const chunks = chunkDocument("guide.md", markdown, "https://docs.example.com", {
    maxTokens: 60,
    overlapTokens: 20,
  }).map((chunk) => ({ ...chunk, collection: "docs" }));

  test("a split section is whole again: every sentence once, in order", () => {
    expect(chunks.filter((chunk) => chunk.heading === "Long section").length).toBeGreaterThan(3);
    // The index may keep a section's chunks in any order: their ordinals put them back.
    const [page] = docPages([...chunks].reverse());
    expect(page?.title).toBe("Guide");
    expect(page?.url).toBe("https://docs.example.com/guide.html");
    const long = page?.sections.find((section) => section.heading === "Long section");
    for (const sentence of sentences) expect(long?.text.split(sentence).length).toBe(2);
    const positions = sentences.map((sentence) => long?.text.indexOf(sentence) ?? -1);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  test("pages are sorted by collection and source; one page per source", () => {
    const other = chunks.map((chunk) => ({ ...chunk, source: "a.md", id: `a-${chunk.id}` }));
    expect(docPages([...chunks, ...other]).map((page) => page.source)).toEqual(["a.md", "guide.md"]);
  });
});

describe("withoutOverlap", () => {
  test("drops the previous passage's tail from the start of the next", () => {
    expect(
      withoutOverlap("One. Two three four five six seven.", "Two three four five six seven. Eight."),
    ).toBe("Eight.");
  });
  test("leaves a passage that repeats nothing unchanged", () => {
    expect(withoutOverlap("One. Two.", "Three. Four.")).toBe("Three. Four.");
    expect(withoutOverlap("One. Two.", "")).toBe("");
  });
});
