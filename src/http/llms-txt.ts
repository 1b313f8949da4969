/**
 * The index as llms.txt (https://llmstxt.org): `# Title`, `> summary`, then one `##` section per
 * folder of the docs (per collection and folder when several sets of docs are indexed) with a
 * `- [Page title](url): description` link per page; llms-full.txt has each page's whole text
 * under the same headings instead of the links.
 */
import { type DocPage, docsTitle } from "../../core/doc-pages.ts";

const DESCRIPTION_CHARS = 160;

/** The first sentence of a page's text, on one line, cut at a word within 160 characters. */
export const pageDescription = (page: DocPage): string => {
  const text = (page.sections.find((section) => section.text.trim() !== "")?.text ?? "")
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const sentence = /^.+?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  if (sentence.length <= DESCRIPTION_CHARS) return sentence;
  const cut = sentence.slice(0, DESCRIPTION_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > 0 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}…`;
};

/** The `##` a page is listed under: its first folder, led by its collection when there are several. */
const sectionOf = (page: DocPage, collections: number): string => {
  const slash = page.source.indexOf("/");
  const folder = slash === -1 ? "" : page.source.slice(0, slash);
  return [collections > 1 ? page.collection : "", folder].filter((part) => part !== "").join(" / ") || "Docs";
};

const grouped = (pages: ReadonlyArray<DocPage>): ReadonlyArray<readonly [string, ReadonlyArray<DocPage>]> => {
  const collections = new Set(pages.map((page) => page.collection)).size;
  const sections = new Map<string, DocPage[]>();
  for (const page of pages) {
    const name = sectionOf(page, collections);
    sections.set(name, [...(sections.get(name) ?? []), page]);
  }
  // Pages at the top of the docs (the front page among them) come first.
  const top = (pages: ReadonlyArray<DocPage>) => (pages.some((page) => !page.source.includes("/")) ? 0 : 1);
  return [...sections].sort(([, a], [, b]) => top(a) - top(b));
};

// Paths, not URLs: the text is the same whatever Host a request names; only the site's base
// path (`/sites/<id>` on the service's host names, "" on its own) leads them.
const header = (pages: ReadonlyArray<DocPage>, title: string | undefined, base: string): string =>
  [
    `# ${docsTitle(pages, title)}`,
    "",
    `> ${pages.length} ${pages.length === 1 ? "page" : "pages"} of documentation, as indexed by this docs assistant. Ask questions and get answers with numbered citations at POST ${base}/api/chat, or over MCP at ${base}/mcp (tools search_docs, read_page and ask_docs); every page's text is in ${base}/llms-full.txt.`,
  ].join("\n");

const link = (page: DocPage): string => {
  const title = page.title || page.source;
  const description = pageDescription(page);
  const target = page.url === "" ? page.source : page.url;
  return `- [${title}](${target})${description === "" ? "" : `: ${description}`}`;
};

/** /llms.txt: the pages as links with a short description, under their sections. */
export const llmsTxt = (pages: ReadonlyArray<DocPage>, title?: string, base = ""): string =>
  `${[
    header(pages, title, base),
    ...grouped(pages).map(([name, list]) => [`## ${name}`, "", ...list.map(link)].join("\n")),
  ].join("\n\n")}\n`;

const fullPage = (page: DocPage): string =>
  [
    `### ${page.title || page.source}`,
    "",
    `Source: ${page.url === "" ? page.source : page.url}`,
    ...page.sections.flatMap((section) =>
      section.heading === "" ? ["", section.text] : ["", `#### ${section.heading}`, "", section.text],
    ),
  ].join("\n");

/** /llms-full.txt: every page's text, under the same sections as /llms.txt. */
export const llmsFullTxt = (pages: ReadonlyArray<DocPage>, title?: string, base = ""): string =>
  `${[
    header(pages, title, base),
    ...grouped(pages).map(([name, list]) => [`## ${name}`, ...list.map(fullPage)].join("\n\n")),
  ].join("\n\n")}\n`;
