/**
 * The docs and the code's comments say what is and why, not which issue asked for it: an issue
 * number is history (git keeps it), and a reader of the page or the code cannot follow it. This
 * holds every doc page (README, BENCHMARKS.md, docs/, any note beside the code) and every source
 * file (comments and strings alike) to naming none; the reason belongs where the number was.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const SOURCE_DIRS = ["core", "adapters", "src", "dev", "test", "examples"];
const SKIPPED = new Set(["node_modules", "fixtures", "screenshots"]);
const SELF = relative(ROOT, import.meta.path);

const walk = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (SKIPPED.has(name)) return [];
        return statSync(path).isDirectory() ? walk(path) : [relative(ROOT, path)];
      })
    : [];

const docs = [
  "README.md",
  "BENCHMARKS.md",
  ...walk(join(ROOT, "docs")),
  ...SOURCE_DIRS.flatMap((dir) => walk(join(ROOT, dir))),
].filter((file) => file.endsWith(".md"));
const sources = SOURCE_DIRS.flatMap((dir) => walk(join(ROOT, dir))).filter(
  (file) => /\.(ts|tsx|js|mjs)$/.test(file) && file !== SELF,
);
const configs = [".env.example", "Dockerfile", "compose.yaml", ".ci/run"].filter((file) =>
  existsSync(join(ROOT, file)),
);

/** "issue 14", "Issue 25's", "issues 20, 21", "issue #3", "PR #12", "pull request 7". */
const ISSUE = /\b(?:issues?|pull requests?|PR)\s*#?\d+/i;
/** A bare "#33" in prose (not an HTML entity like &#60;, a colour like #8884, or a path). */
const HASH_NUMBER = /(?<![\w&/#-])#\d{1,4}\b(?![\w-])/;
/** The comment part of a source line: a `//` comment, or a line of a block comment. */
const commentOf = (line: string): string => {
  if (/^\s*(\/\*|\*)/.test(line)) return line;
  const at = line.search(/(?<![:"'`])\/\/\s/);
  return at < 0 ? "" : line.slice(at);
};

const offences = (files: ReadonlyArray<string>, hashesIn: (line: string) => string): string[] =>
  files.flatMap((file) =>
    readFileSync(join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, index) =>
        ISSUE.test(line) || HASH_NUMBER.test(hashesIn(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
      ),
  );

describe("docs and comments read as the present", () => {
  test("the files are found", () => {
    expect(docs).toContain("docs/performance.md");
    expect(sources).toContain("src/main.ts");
    expect(sources.length).toBeGreaterThan(300);
  });

  test("no doc page names an issue or pull request by number", () => {
    expect(offences([...docs, ...configs], (line) => line)).toEqual([]);
  });

  test("no source file names one, in a comment or a string", () => {
    expect(offences(sources, commentOf)).toEqual([]);
  });

  test("the check sees the shapes it is for", () => {
    for (const text of ["(issue 33)", "Issue 25's goals", "issues 20, 21 and 26", "see #41", "PR #7"])
      expect(ISSUE.test(text) || HASH_NUMBER.test(text), text).toBe(true);
    for (const text of ["issued 3", "&#60;docs&#62;", "docs/x.md#sizes", "issues.map(", "`#123abc`"])
      expect(ISSUE.test(text) || HASH_NUMBER.test(text), text).toBe(false);
    expect(HASH_NUMBER.test(commentOf("  pre { border: 1px solid #8884; }"))).toBe(false);
    expect(HASH_NUMBER.test(commentOf("  x = 1; // see #41"))).toBe(true);
  });

  test("links into docs/performance.md and docs/widget.md name headings they have", () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-");
    const anchors = (file: string) =>
      new Set(
        readFileSync(join(ROOT, file), "utf8")
          .split("\n")
          .filter((line) => /^#{1,6} /.test(line))
          .map((line) => slug(line.replace(/^#+ /, ""))),
      );
    const targets = {
      "performance.md": anchors("docs/performance.md"),
      "widget.md": anchors("docs/widget.md"),
    };
    const broken = docs.flatMap((file) =>
      [
        ...readFileSync(join(ROOT, file), "utf8").matchAll(
          /\((?:[\w./]*\/)?(performance|widget)\.md#([^)\s]+)\)/g,
        ),
      ]
        .filter((link) => !targets[`${link[1]}.md` as keyof typeof targets].has(link[2] ?? ""))
        .map((link) => `${file}: ${link[0]}`),
    );
    const local = ["docs/performance.md", "docs/widget.md"].flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/\]\(#([^)\s]+)\)/g)]
        .filter((link) => !anchors(file).has(link[1] ?? ""))
        .map((link) => `${file}: ${link[0]}`),
    );
    expect([...broken, ...local]).toEqual([]);
  });
});
