/** Plain text: one untitled section whose paragraphs are separated by blank lines. */
import type { ParsedDocument } from "./parsed.ts";

/** Parses a plain-text document; its title is the file name. */
export const parseText = (source: string, fileName: string): ParsedDocument => {
  const blocks = source
    .split(/\r?\n[ \t]*\r?\n/)
    .map((paragraph) => paragraph.replace(/[ \t]+$/gm, "").trim())
    .filter((paragraph) => paragraph !== "")
    .map((text) => ({ kind: "prose" as const, text }));
  return { title: fileName, sections: blocks.length === 0 ? [] : [{ headings: [], anchor: "", blocks }] };
};
