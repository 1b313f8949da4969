/**
 * Markdown to sections: ATX and setext headings open sections, fenced code blocks are kept
 * whole, front matter, HTML comments and link reference definitions are dropped, and inline
 * links keep only their text.
 */
import { type Block, headingTracker, type ParsedDocument, type Section } from "./parsed.ts";
import { slugger } from "./slug.ts";

const FRONT_MATTER =
  /^(?:---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)|\+\+\+\r?\n[\s\S]*?\r?\n\+\+\+)[ \t]*(?:\r?\n|$)/;
// Any indent: fences nested in list items are still fences.
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S+/;

/** Inline Markdown to plain text: links and images keep their text, emphasis marks go. */
export const inlineText = (markdown: string): string =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, "$1")
    .trim();

/** Prose keeps backticks (they mark code for the reader) but loses link targets and tags. */
const proseText = (lines: ReadonlyArray<string>): string =>
  lines
    .join("\n")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .trim();

/** Parses a Markdown document; `fallbackTitle` is used when it has no h1. */
export const parseMarkdown = (source: string, fallbackTitle: string): ParsedDocument => {
  const lines = source.replace(FRONT_MATTER, "").split(/\r?\n/);
  const sections: Section[] = [];
  const headings = headingTracker();
  const slug = slugger();
  let title: string | undefined;
  let current: { headings: ReadonlyArray<string>; anchor: string; blocks: Block[] } = {
    headings: [],
    anchor: "",
    blocks: [],
  };
  let paragraph: string[] = [];
  const flush = () => {
    const text = proseText(paragraph);
    if (text !== "") current.blocks.push({ kind: "prose", text });
    paragraph = [];
  };
  const openSection = (level: number, raw: string) => {
    const text = inlineText(raw);
    if (current.blocks.length > 0) sections.push(current);
    // The first h1 is the page itself: its chunks link to the page, not to an anchor.
    const isTitle = level === 1 && title === undefined;
    if (isTitle) title = text;
    const anchor = slug(text);
    current = { headings: headings.enter(level, text), anchor: isTitle ? "" : anchor, blocks: [] };
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      flush();
      const marker = fence[1]!;
      const code = [line];
      while (++i < lines.length) {
        const next = lines[i]!;
        code.push(next);
        if (
          next.trim().startsWith(marker[0]!.repeat(marker.length)) &&
          next.trim().replaceAll(marker[0]!, "") === ""
        )
          break;
      }
      current.blocks.push({ kind: "code", text: code.join("\n") });
      continue;
    }
    if (line.trimStart().startsWith("<!--")) {
      flush();
      while (!lines[i]!.includes("-->") && i + 1 < lines.length) i++;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx !== null) {
      flush();
      openSection(atx[1]!.length, atx[2] ?? "");
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext !== null && paragraph.length > 0) {
      const text = paragraph.join(" ");
      paragraph = [];
      openSection(setext[1]!.startsWith("=") ? 1 : 2, text);
      continue;
    }
    if (line.trim() === "") flush();
    else if (!LINK_DEFINITION.test(line)) paragraph.push(line);
  }
  flush();
  if (current.blocks.length > 0) sections.push(current);
  return { title: title ?? fallbackTitle, sections };
};
