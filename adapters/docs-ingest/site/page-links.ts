/**
 * What a crawler reads from a page besides its text: the canonical URL it declares, the links
 * it offers and whether its robots meta tag forbids indexing or following them. Read before
 * the main content is extracted, since navigation (which mainContent removes) holds most links.
 */
import { selectAll, selectOne } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";

export interface PageLinks {
  readonly canonical: string | undefined;
  readonly links: ReadonlyArray<string>;
  readonly noindex: boolean;
  readonly nofollow: boolean;
}

/** The URL without its fragment: `page.html#intro` and `page.html` are one page. */
export const pageKey = (url: string): string => {
  const parsed = new URL(url);
  parsed.hash = "";
  return parsed.href;
};

const absolute = (href: string | undefined, base: string): string | undefined =>
  href !== undefined && URL.canParse(href.trim(), base)
    ? pageKey(new URL(href.trim(), base).href)
    : undefined;

export const pageLinks = (document: Document, pageUrl: string): PageLinks => {
  const declaredBase = selectOne<AnyNode, Element>("base[href]", document)?.attribs.href;
  const base = absolute(declaredBase, pageUrl) ?? pageUrl;
  const canonical = absolute(
    selectOne<AnyNode, Element>("link[rel~=canonical][href]", document)?.attribs.href,
    base,
  );
  const robots = (selectOne<AnyNode, Element>("meta[name=robots i]", document)?.attribs.content ?? "")
    .toLowerCase()
    .split(",")
    .map((word) => word.trim());
  const links = selectAll<AnyNode, Element>("a[href]", document).flatMap((anchor) => {
    if ((anchor.attribs.rel ?? "").split(/\s+/).includes("nofollow")) return [];
    const url = absolute(anchor.attribs.href, base);
    return url === undefined || !/^https?:/.test(url) ? [] : [url];
  });
  return {
    canonical,
    links: [...new Set(links)],
    noindex: robots.includes("noindex") || robots.includes("none"),
    nofollow: robots.includes("nofollow") || robots.includes("none"),
  };
};
