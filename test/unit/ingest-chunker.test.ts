/** Markdown and text chunking: heading paths, code blocks whole, overlap, ids, URLs. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { chunkBlocks, countTokens } from "../../adapters/docs-ingest/chunker.ts";
import { chunkDocument } from "../../adapters/docs-ingest/document.ts";
import { parseMarkdown } from "../../adapters/docs-ingest/markdown.ts";

const fixture = (path: string) => readFileSync(`test/fixtures/docs/site/${path}`, "utf8");
const sentence = (i: number) => `Sentence number ${i} talks about topic ${i} in some detail here.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => sentence(from + i)).join(" ");

describe("markdown parsing", () => {
  test("keeps the heading path of every chunk and takes the title from the first h1", () => {
    const chunks = chunkDocument("api/network.md", fixture("api/network.md"));
    expect(chunks.map((c) => c.heading)).toEqual([
      "net.listen(port)",
      "net.connect(host, port)",
      "Event: 'close'",
      "Timeouts > net.setTimeout(ms)",
    ]);
    expect(new Set(chunks.map((c) => c.title))).toEqual(new Set(["Network API"]));
  });

  test("drops front matter, HTML comments and link definitions; links keep their text", () => {
    const install = chunkDocument("guide/install.md", fixture("guide/install.md"));
    const files = chunkDocument("api/files.md", fixture("api/files.md"));
    const all = [...install, ...files].map((c) => c.text).join("\n");
    expect(all).not.toContain("sidebar: guide");
    expect(all).not.toContain("added: v1.0.0");
    expect(all).not.toContain("../guide/install.md");
    expect(all).toContain("See the guide for setup.");
    expect(install[0]!.title).toBe("Installing Widgetron");
  });

  test("a fenced code block is never split, even when larger than a chunk", () => {
    const code = [
      "```js",
      ...Array.from({ length: 120 }, (_, i) => `const value${i} = compute(${i});`),
      "```",
    ].join("\n");
    const markdown = `# Big\n\n${paragraph(0, 10)}\n\n${code}\n\n${paragraph(10, 10)}`;
    const chunks = chunkDocument("big.md", markdown, "", { maxTokens: 100, overlapTokens: 20 });
    const holding = chunks.filter((c) => c.text.includes("const value0 "));
    expect(holding).toHaveLength(1);
    expect(holding[0]!.text).toContain(code);
    expect(chunks.filter((c) => c.text.includes("const value119 "))).toHaveLength(1);
    for (const chunk of chunks.filter((c) => !c.text.includes("```")))
      expect(countTokens(chunk.text)).toBeLessThanOrEqual(100);
  });

  test("fences inside list items and tilde fences are code blocks too", () => {
    const doc = parseMarkdown(
      "# T\n\n* item\n\n  ```js\n  # not a heading\n  ```\n\n~~~\n## also not\n~~~\n",
      "t.md",
    );
    expect(doc.sections).toHaveLength(1);
    expect(doc.sections[0]!.blocks.map((b) => b.kind)).toEqual(["prose", "code", "code"]);
  });

  test("setext headings open sections", () => {
    const doc = parseMarkdown("Title\n=====\n\nIntro.\n\nPart\n----\n\nBody.\n", "t.md");
    expect(doc.title).toBe("Title");
    expect(doc.sections.map((s) => s.headings.join(" > "))).toEqual(["", "Part"]);
  });

  test("without an h1 the first heading is the title, then front matter's title, then the file name", () => {
    const chunks = chunkDocument("notes/today.md", "## Morning\n\nCoffee first.\n\n## Noon\n\nLunch.\n");
    expect(chunks.map((c) => [c.title, c.heading])).toEqual([
      ["Morning", ""],
      ["Morning", "Noon"],
    ]);
    expect(chunkDocument("a.md", '---\ntitle: "Set up"\n---\n\nText.\n')[0]!.title).toBe("Set up");
    expect(chunkDocument("notes/plain.md", "Just text.\n")[0]!.title).toBe("plain.md");
  });

  test("inline code keeps everything in <...>, escapes are resolved, generics stay in headings", () => {
    const chunks = chunkDocument(
      "cli.md",
      "# Docs chat\n\n## Scripts\n\nRun `npm run ingest -- <files or folders>` \\*now\\* &amp; here.\n\n## `Map<K, V>` helpers\n\n| a | `b<c>` |\n|---|---|\n| 1 | 2 |\n",
    );
    expect(chunks[0]!.text).toBe("Run `npm run ingest -- <files or folders>` *now* & here.");
    expect(chunks[1]!.heading).toBe("Map<K, V> helpers");
    expect(chunks[1]!.text).toBe("| a | `b<c>` |\n| 1 | 2 |");
    expect(chunks.every((c) => !c.heading.includes("Docs chat"))).toBe(true);
  });
});

describe("chunk packing", () => {
  test("long prose is cut into chunks within the limit that overlap by whole sentences", () => {
    const chunks = chunkBlocks([{ kind: "prose", text: paragraph(0, 40) }], {
      maxTokens: 80,
      overlapTokens: 25,
    });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(countTokens(chunk)).toBeLessThanOrEqual(80);
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!.split(/(?<=\.) /);
      const current = chunks[i]!.split(/(?<=\.) /);
      // The chunk opens with the previous chunk's last sentences (at most 25 tokens of them).
      const repeated = current.filter((s) => previous.includes(s));
      expect(repeated.length).toBeGreaterThan(0);
      expect(current.slice(0, repeated.length)).toEqual(previous.slice(-repeated.length));
      expect(countTokens(repeated.join(" "))).toBeLessThanOrEqual(25);
    }
    // Every sentence survives somewhere, in order.
    const joined = chunks.join(" ");
    for (let i = 0; i < 40; i++) expect(joined).toContain(sentence(i));
  });

  test("a hard-wrapped paragraph is cut at sentence ends across its lines: no chunk starts or ends mid-sentence", () => {
    // Wrapped at 60 columns as Markdown sources are, so most lines start and end mid-sentence.
    const wrapped = paragraph(0, 40)
      .replace(/(.{1,60})(?: |$)/g, "$1\n")
      .trim();
    expect(wrapped.split("\n").length).toBeGreaterThan(30);
    const chunks = chunkBlocks(parseMarkdown(wrapped, "wrapped").sections[0]!.blocks, {
      maxTokens: 80,
      overlapTokens: 25,
    });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk).toMatch(/^Sentence number \d+ /);
      expect(chunk).toMatch(/here\.$/);
      expect(chunk).not.toContain("\n");
      expect(countTokens(chunk)).toBeLessThanOrEqual(80);
    }
    const joined = chunks.join(" ");
    for (let i = 0; i < 40; i++) expect(joined).toContain(sentence(i));
  });

  test("a long list is cut between items and a long table between rows, never inside one", () => {
    const items = Array.from(
      { length: 30 },
      (_, i) => `- Item ${i} explains option ${i},\n  wrapped onto a second line.`,
    );
    const rows = Array.from({ length: 30 }, (_, i) => `| option${i} | what option ${i} does |`);
    for (const text of [items.join("\n"), rows.join("\n")]) {
      const chunks = chunkBlocks([{ kind: "prose", text }], { maxTokens: 60, overlapTokens: 0 });
      expect(chunks.length).toBeGreaterThan(2);
      const whole = text.split(/\n(?=[-|])/);
      for (const chunk of chunks)
        for (const piece of chunk.split(/\n(?=[-|])/)) expect(whole).toContain(piece);
    }
  });

  test("no overlap is repeated when overlap is zero, and code is never repeated as overlap", () => {
    const blocks = [
      { kind: "prose" as const, text: paragraph(0, 6) },
      { kind: "code" as const, text: "```\nshort code\n```" },
      { kind: "prose" as const, text: paragraph(6, 6) },
    ];
    const plain = chunkBlocks(blocks, { maxTokens: 70, overlapTokens: 0 });
    expect(plain.join("\n\n").split("short code")).toHaveLength(2);
    const overlapping = chunkBlocks(blocks, { maxTokens: 70, overlapTokens: 30 });
    expect(overlapping.join("\n\n").split("short code")).toHaveLength(2);
  });

  test("empty input gives no chunks", () => {
    expect(chunkBlocks([])).toEqual([]);
    expect(chunkDocument("empty.md", "---\na: 1\n---\n\n# Only a title\n")).toEqual([]);
  });
});

describe("ids and URLs", () => {
  test("ids are stable across runs and unaffected by edits elsewhere in the document", () => {
    const original = chunkDocument("api/files.md", fixture("api/files.md"));
    expect(chunkDocument("api/files.md", fixture("api/files.md"))).toEqual(original);
    const edited = fixture("api/files.md").replace(
      "## `files.watch",
      "## `files.remove(path)`\n\nDeletes it.\n\n## `files.watch",
    );
    const after = chunkDocument("api/files.md", edited);
    const byHeading = (list: typeof original) => new Map(list.map((c) => [c.heading, c.id]));
    for (const [heading, id] of byHeading(original)) expect(byHeading(after).get(heading)).toBe(id);
    expect(new Set(after.map((c) => c.id)).size).toBe(after.length);
  });

  test("ids differ by source and by ordinal within a section", () => {
    const text = `# T\n\n${paragraph(0, 30)}`;
    const a = chunkDocument("a.md", text, "", { maxTokens: 60, overlapTokens: 0 });
    const b = chunkDocument("b.md", text, "", { maxTokens: 60, overlapTokens: 0 });
    expect(a.length).toBeGreaterThan(1);
    expect(new Set([...a, ...b].map((c) => c.id)).size).toBe(a.length + b.length);
  });

  test("URLs map .md to .html and add the heading anchor; repeated headings get -1", () => {
    const doc =
      "# Events\n\nIntro.\n\n## Class: `Reader`\n\n### Event: `'close'`\n\nA.\n\n## Class: `Writer`\n\n### Event: `'close'`\n\nB.\n";
    const chunks = chunkDocument("api/events.md", doc, "https://docs.example.com/v2/");
    expect(chunks.map((c) => c.url)).toEqual([
      "https://docs.example.com/v2/api/events.html",
      "https://docs.example.com/v2/api/events.html#event-close",
      "https://docs.example.com/v2/api/events.html#event-close-1",
    ]);
    expect(chunkDocument("api/events.md", doc).every((c) => c.url === "")).toBe(true);
  });

  test("API-style headings get the anchors the Node.js docs use", () => {
    const chunks = chunkDocument(
      "fs.md",
      "# File system\n\n## `fsPromises.writeFile(file, data[, options])`\n\nWrites.\n",
      "https://nodejs.org/api",
    );
    expect(chunks[0]!.url).toBe("https://nodejs.org/api/fs.html#fspromiseswritefilefile-data-options");
  });
});

describe("plain text", () => {
  test("paragraphs become one untitled section named after the file", () => {
    const chunks = chunkDocument("notes.txt", fixture("notes.txt"), "https://x.example");
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.title).toBe("notes.txt");
    expect(chunks[0]!.heading).toBe("");
    expect(chunks[0]!.url).toBe("https://x.example/notes.txt");
    expect(chunks[0]!.text).toContain("Telemetry is now off by default.");
  });
});
