/**
 * Sitemaps (sitemaps.org) read with htmlparser2's XML mode: a `<urlset>` lists pages with an
 * optional `<lastmod>`, a `<sitemapindex>` lists further sitemaps.
 */
import type { Element } from "domhandler";
import { getElementsByTagName, textContent } from "domutils";
import { parseDocument } from "htmlparser2";

export interface SitemapEntry {
  readonly url: string;
  readonly lastmod: string | undefined;
}

export type Sitemap =
  | { readonly kind: "pages"; readonly entries: ReadonlyArray<SitemapEntry> }
  | { readonly kind: "index"; readonly sitemaps: ReadonlyArray<string> }
  | { readonly kind: "not-a-sitemap" };

const childText = (parent: Element, name: string): string | undefined => {
  const found = getElementsByTagName(name, parent.children, false, 1)[0];
  const text = found === undefined ? "" : textContent(found).trim();
  return text === "" ? undefined : text;
};

/** Parses a sitemap; relative or malformed locations are dropped. */
export const parseSitemap = (xml: string, base: string): Sitemap => {
  const document = parseDocument(xml, { xmlMode: true, decodeEntities: true });
  const absolute = (loc: string | undefined) =>
    loc !== undefined && URL.canParse(loc, base) ? new URL(loc, base).href : undefined;
  const index = getElementsByTagName("sitemapindex", document, true, 1)[0];
  if (index !== undefined) {
    const sitemaps = getElementsByTagName("sitemap", index).flatMap((entry) => {
      const loc = absolute(childText(entry, "loc"));
      return loc === undefined ? [] : [loc];
    });
    return { kind: "index", sitemaps };
  }
  const urlset = getElementsByTagName("urlset", document, true, 1)[0];
  if (urlset === undefined) return { kind: "not-a-sitemap" };
  const entries = getElementsByTagName("url", urlset).flatMap((entry) => {
    const url = absolute(childText(entry, "loc"));
    return url === undefined ? [] : [{ url, lastmod: childText(entry, "lastmod") }];
  });
  return { kind: "pages", entries };
};
