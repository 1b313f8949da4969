/**
 * HTML to sections with htmlparser2: the page's main content only (html-main.ts), headings open
 * sections (anchor: the heading's id, or that of the section element it heads), <pre> becomes a
 * whole code block, inline <code> keeps its text in backticks, table rows become "| a | b |"
 * lines, and API entries of generated references (a <dt> with an id: Sphinx signatures,
 * DocBook variable lists, glossary terms) open sub-sections of their own, so each function or
 * setting is found and cited by name.
 */
import { type AnyNode, type Document, type Element, isTag, isText } from "domhandler";
import { textContent } from "domutils";
import { parseDocument } from "htmlparser2";
import { findOne, mainContent } from "./html-main.ts";
import { collapse, type ParsedDocument, type SectionBuilder, sectionBuilder } from "./parsed.ts";
import { slugger } from "./slug.ts";

const BLOCKS = new Set(
  "p div section article main li ul ol dd blockquote figure figcaption details summary hr address center".split(
    " ",
  ),
);
const INLINE_CODE = new Set(["code", "tt", "kbd", "samp"]);
const HEADINGS = "h1, h2, h3, h4, h5, h6";

/** An element's text as one line, inline code in backticks when `marked`. */
const inlineOf = (node: AnyNode, marked: boolean): string => {
  if (isText(node)) return node.data;
  if (!isTag(node)) return "";
  if (node.name === "br") return " ";
  const inner = node.children.map((child) => inlineOf(child, marked)).join("");
  if (!marked || !INLINE_CODE.has(node.name)) return BLOCKS.has(node.name) ? ` ${inner} ` : inner;
  const code = collapse(inner);
  return code === "" || code.includes("`") ? inner : `\`${code}\``;
};

/** The id a heading is linked by: its own, a child anchor's, or that of the section it opens. */
const anchorOf = (heading: Element): string | undefined => {
  const own = heading.attribs.id ?? findOne("[id], a[name]", heading)?.attribs;
  if (typeof own === "string") return own;
  if (own !== undefined) return own.id ?? own.name;
  let parent = heading.parent;
  for (let depth = 0; depth < 4 && parent !== null && isTag(parent); depth++, parent = parent.parent) {
    if (parent.attribs.id !== undefined && findOne(HEADINGS, parent) === heading) return parent.attribs.id;
  }
  return undefined;
};

/** A <dt> that names an API entry (it carries an id, as Sphinx, DocBook and glossaries do). */
const entryId = (term: Element): string | undefined =>
  term.attribs.id ?? (term.children.find(isTag)?.attribs.id as string | undefined);

const walker = (doc: SectionBuilder) => {
  const slug = slugger();
  // The heading level of the entries of each open <dl>: one below the section holding it.
  const entryLevels: number[] = [];
  let text = "";
  // A definition-list term without an id opens the next paragraph: "`HEADER`: Specifies that...".
  let term = "";
  const flush = () => {
    const prose = collapse(text);
    if (prose !== "") {
      doc.add({ kind: "prose", text: term === "" ? prose : `${term}: ${prose}` });
      term = "";
    }
    text = "";
  };
  const visit = (node: AnyNode): void => {
    if (isText(node)) {
      text += node.data;
      return;
    }
    if (!isTag(node)) return;
    const name = node.name;
    if (/^h[1-6]$/.test(name)) {
      flush();
      // A heading left unclosed swallows the blocks after it: those are content, not heading.
      const firstBlock = node.children.findIndex(
        (child) => isTag(child) && (BLOCKS.has(child.name) || child.name === "pre"),
      );
      const own = firstBlock < 0 ? node.children : node.children.slice(0, firstBlock);
      const heading = collapse(own.map((child) => textContent(child)).join(""));
      doc.heading(Number(name[1]), heading, anchorOf(node) ?? slug(heading));
      if (firstBlock >= 0) for (const child of node.children.slice(firstBlock)) visit(child);
    } else if (name === "pre") {
      flush();
      const code = textContent(node).replace(/^\n+|\s+$/g, "");
      if (code !== "") doc.add({ kind: "code", text: `\`\`\`\n${code}\n\`\`\`` });
    } else if (name === "table") {
      flush();
      const rows = selectRows(node).map((row) => `| ${row.join(" | ")} |`);
      if (rows.length > 0) doc.add({ kind: "prose", text: rows.join("\n") });
    } else if (name === "dl") {
      flush();
      const mark = doc.mark();
      entryLevels.push(doc.level() + 1);
      for (const child of node.children) visit(child);
      flush();
      entryLevels.pop();
      doc.restore(mark);
    } else if (name === "dt" && entryId(node) !== undefined) {
      flush();
      term = "";
      doc.heading(entryLevels.at(-1) ?? doc.level() + 1, collapse(inlineOf(node, false)), entryId(node)!);
    } else if (name === "dt") {
      flush();
      const named = collapse(inlineOf(node, true));
      term = term === "" ? named : `${term}, ${named}`;
    } else if (INLINE_CODE.has(name)) {
      text += inlineOf(node, true);
    } else if (name === "br" || BLOCKS.has(name)) {
      flush();
      if (name === "li") text = "- ";
      for (const child of node.children) visit(child);
      flush();
    } else {
      for (const child of node.children) visit(child);
    }
  };
  return { visit, flush };
};

/** Table rows as cell texts (a nested table's rows count as rows of their own). */
const selectRows = (table: Element): ReadonlyArray<ReadonlyArray<string>> => {
  const rows: string[][] = [];
  const collect = (node: AnyNode) => {
    if (!isTag(node)) return;
    if (node.name === "tr") {
      const cells = node.children.filter(isTag).filter((cell) => cell.name === "td" || cell.name === "th");
      const texts = cells.map((cell) => collapse(inlineOf(cell, true)));
      if (texts.some((cell) => cell !== "")) rows.push(texts);
      return;
    }
    for (const child of node.children) collect(child);
  };
  collect(table);
  return rows;
};

/** The page title: its h1, else <title>, else its first heading, else `fallback`. */
const titleOf = (document: Document, main: Element | Document, fallback: string): string => {
  const h1 = findOne("h1", main);
  const titleTag = findOne("title", document);
  const first = findOne(HEADINGS, main);
  const candidates = [h1, titleTag, first].map((element) => (element ? collapse(textContent(element)) : ""));
  return candidates.find((candidate) => candidate !== "") ?? fallback;
};

/** Parses an HTML page; `fallbackTitle` is used when it has no heading and no <title>. */
export const parseHtml = (html: string, fallbackTitle: string): ParsedDocument =>
  parseHtmlTree(parseHtmlDom(html), fallbackTitle);

/** The DOM of a page, for a caller that reads more of it (a crawler's links) before its sections. */
export const parseHtmlDom = (html: string): Document => parseDocument(html, { decodeEntities: true });

/** Sections of an already parsed page (its furniture is removed from `document`). */
export const parseHtmlTree = (document: Document, fallbackTitle: string): ParsedDocument => {
  const main = mainContent(document);
  const doc = sectionBuilder(titleOf(document, main, fallbackTitle));
  const { visit, flush } = walker(doc);
  for (const child of main.children) visit(child);
  flush();
  return doc.finish();
};
