/**
 * The main content of a generated docs page: the element that holds the article (Sphinx,
 * MkDocs, Docusaurus and most themes mark it with role="main", <main> or <article>; DocBook
 * pages have only <body>), with the site's furniture removed from it: navigation, sidebars,
 * breadcrumbs, previous/next links, footers, heading permalinks, tables of contents, scripts.
 */
import { selectAll, selectOne } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";
import { removeElement, textContent } from "domutils";

/** Most specific first: an article inside <main> beats the <main> that also holds sidebars. */
const MAIN = [
  "article[role=main]",
  "[role=main]",
  "article.md-content__inner",
  ".theme-doc-markdown",
  "main article",
  "article",
  "main",
  "div.body",
  "#content",
  "body",
];

const FURNITURE = [
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "iframe",
  "form",
  "button",
  "nav",
  "aside",
  "footer",
  "header:not(:has(h1, h2, h3))",
  "[role=navigation]",
  "[role=search]",
  "[role=banner]",
  "[role=contentinfo]",
  // Sphinx
  ".headerlink",
  ".sphinxsidebar",
  ".related",
  ".rst-footer-buttons",
  ".prev-next-area",
  ".toctree-wrapper",
  ".copybutton",
  // MkDocs (Material)
  ".md-sidebar",
  ".md-source-file",
  ".md-footer",
  ".md-header",
  // Docusaurus
  ".hash-link",
  ".theme-doc-breadcrumbs",
  ".theme-doc-toc-mobile",
  ".theme-doc-footer",
  ".pagination-nav",
  // DocBook
  ".navheader",
  ".navfooter",
  "div.toc",
  // generic
  ".breadcrumb",
  ".breadcrumbs",
  ".skip-link",
  ".visually-hidden",
  ".sr-only",
].join(", ");

const PERMALINKS = ["h1", "h2", "h3", "h4", "h5", "h6", "dt"].map((tag) => `${tag} a[href^="#"]`).join(", ");

/** The first element under `root` that matches `query` (css-select typed for domhandler nodes). */
export const findOne = (query: string, root: AnyNode): Element | null =>
  selectOne<AnyNode, Element>(query, root);

/** The main content element of the page, stripped of furniture (the document is changed). */
export const mainContent = (document: Document): Element | Document => {
  const root = MAIN.reduce<Element | null>((found, selector) => found ?? findOne(selector, document), null);
  const main = root ?? document;
  for (const element of selectAll<AnyNode, Element>(FURNITURE, main)) removeElement(element);
  // Permalink marks of any generator: a link to the heading itself whose text is a lone symbol.
  for (const link of selectAll<AnyNode, Element>(PERMALINKS, main))
    if (/^[#¶§🔗]?$/u.test(textContent(link).trim())) removeElement(link);
  return main;
};
