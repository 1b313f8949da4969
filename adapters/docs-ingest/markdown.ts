/**
 * Markdown to sections: ATX and setext headings open sections, fenced code blocks are kept
 * whole, front matter, HTML comments and link reference definitions are dropped, and inline
 * links keep only their text.
 */
import { type ParsedDocument, sectionBuilder } from "./parsed.ts";
import { slugger } from "./slug.ts";

const FRONT_MATTER =
  /^(?:---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)|\+\+\+\r?\n[\s\S]*?\r?\n\+\+\+)[ \t]*(?:\r?\n|$)/;
// Any indent: fences nested in list items are still fences.
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S+/;

/** Links and images keep their text (inline and reference style); HTML tags go. */
const dropLinksAndTags = (markdown: string): string =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<\/?[A-Za-z][^>]*>/g, "");

/** Inline Markdown to plain text: links and images keep their text, emphasis marks go. */
export const inlineText = (markdown: string): string =>
  dropLinksAndTags(markdown)
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, "$1")
    .trim();

/** Prose keeps backticks (they mark code for the reader) but loses link targets and tags. */
const proseText = (lines: ReadonlyArray<string>): string =>
  dropLinksAndTags(lines.join("\n").replace(/<!--[\s\S]*?-->/g, "")).trim();

/** Parses a Markdown document; `fallbackTitle` is used when it has no h1. */
export const parseMarkdown = (source: string, fallbackTitle: string): ParsedDocument => {
  const lines = source.replace(FRONT_MATTER, "").split(/\r?\n/);
  const doc = sectionBuilder();
  const slug = slugger();
  let paragraph: string[] = [];
  const flush = () => {
    const text = proseText(paragraph);
    if (text !== "") doc.add({ kind: "prose", text });
    paragraph = [];
  };
  const openSection = (level: number, raw: string) => {
    const text = inlineText(raw);
    doc.heading(level, text, slug(text));
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
      doc.add({ kind: "code", text: code.join("\n") });
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
  return doc.finish(fallbackTitle);
};
