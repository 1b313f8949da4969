/**
 * The main content of a generated docs page: the element that holds the article (Sphinx,
 * MkDocs, Docusaurus and most themes mark it with role="main", <main> or <article>; VitePress
 * with .vp-doc; hand-written sites often with div.content; DocBook pages have only <body>),
 * with the site's furniture removed from it: navigation, sidebars, breadcrumbs, previous/next
 * links, footers, "edit this page" links, heading permalinks, tables of contents, scripts.
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
  ".vp-doc",
  "main article",
  "article",
  "main",
  "div.body",
  "#content",
  "#main-content",
  "div.content",
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
  // VitePress
  ".header-anchor",
  ".VPDocFooter",
  ".vp-doc .lang",
  // "Edit this page" and "last updated" lines (Sphinx themes, MkDocs Material, Docusaurus, VitePress)
  ".edit-this-page",
  ".editthispage",
  ".theme-edit-this-page",
  ".md-content__button",
  ".wy-breadcrumbs-aside",
  ".edit-link",
  ".last-updated",
  // DocBook
  ".navheader",
  ".navfooter",
  "div.toc",
  // generic
  ".breadcrumb",
  ".sidebar",
  "#sidebar",
  ".breadcrumbs",
  ".skip-link",
  ".visually-hidden",
  ".sr-only",
].join(", ");

/** A link that only offers to edit the page's source or view it, whatever the generator calls it. */
const EDIT_LINK =
  /^(edit|improve) (this|the) page\b|^edit on (github|gitlab|bitbucket)\b|^view (page )?source\b/i;

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
  // (VitePress's mark is a zero-width space, which trim() keeps.)
  for (const link of selectAll<AnyNode, Element>(PERMALINKS, main))
    if (
      /^[#¶§🔗]?$/u.test(
        textContent(link)
          .replace(/\u200b/g, "")
          .trim(),
      )
    )
      removeElement(link);
  for (const link of selectAll<AnyNode, Element>("a[href]", main))
    if (EDIT_LINK.test(textContent(link).trim())) removeElement(link);
  return main;
};
