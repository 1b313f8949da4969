/**
 * One page of a site: fetched (conditionally when the last sync knew it), its format decided
 * by its content type, parsed once for both its links and its sections, and hashed, so the
 * sync can tell a changed page from an unchanged one even where the server sends no validators.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { parseHtmlDom, parseHtmlTree } from "../html.ts";
import { parseMarkdown } from "../markdown.ts";
import type { ParsedDocument } from "../parsed.ts";
import { parseText } from "../plain-text.ts";
import { type PageLinks, pageLinks } from "./page-links.ts";
import { type Conditions, type FetchFailure, type FetchLimits, safeFetch } from "./safe-fetch.ts";

export type PageFormat = "html" | "markdown" | "text";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const MARKDOWN_TYPES = new Set(["text/markdown", "text/x-markdown"]);

/** The parser a content type calls for (text/plain named .md is Markdown); undefined: not a page. */
export const formatOf = (contentType: string, url: string): PageFormat | undefined => {
  if (HTML_TYPES.has(contentType)) return "html";
  if (MARKDOWN_TYPES.has(contentType)) return "markdown";
  if (contentType === "text/plain" || contentType === "")
    return /\.(md|markdown|mdx)$/i.test(new URL(url).pathname) ? "markdown" : "text";
  return undefined;
};

export type PageRead =
  | {
      readonly kind: "fetched";
      readonly url: string;
      readonly document: ParsedDocument;
      readonly links: PageLinks;
      readonly hash: string;
      readonly etag: string | undefined;
      readonly lastModified: string | undefined;
    }
  | { readonly kind: "not-modified" }
  | { readonly kind: "gone"; readonly status: number }
  | { readonly kind: "not-a-page"; readonly contentType: string }
  | { readonly kind: "failed"; readonly failure: FetchFailure; readonly detail: string };

const NO_LINKS: PageLinks = { canonical: undefined, links: [], noindex: false, nofollow: false };

const parse = (format: PageFormat, text: string, url: string) => {
  const fallbackTitle = decodeURIComponent(basename(new URL(url).pathname)) || new URL(url).host;
  if (format === "html") {
    const dom = parseHtmlDom(text);
    // Links first: extracting the main content removes the navigation that holds most of them.
    const links = pageLinks(dom, url);
    return { links, document: parseHtmlTree(dom, fallbackTitle) };
  }
  const document =
    format === "markdown" ? parseMarkdown(text, fallbackTitle) : parseText(text, fallbackTitle);
  return { links: NO_LINKS, document };
};

/** Fetches and parses the page at `url`. */
export const readPage = async (
  url: string,
  limits: FetchLimits,
  conditions: Conditions,
): Promise<PageRead> => {
  const outcome = await safeFetch(url, limits, (type) => formatOf(type, url) !== undefined, conditions);
  switch (outcome.kind) {
    case "not-modified":
      return { kind: "not-modified" };
    case "gone":
      return { kind: "gone", status: outcome.status };
    case "refused-type":
      return { kind: "not-a-page", contentType: outcome.contentType };
    case "failed":
      return { kind: "failed", failure: outcome.failure, detail: outcome.detail };
    case "body": {
      const text = new TextDecoder().decode(outcome.body);
      const { links, document } = parse(formatOf(outcome.contentType, outcome.url)!, text, outcome.url);
      return {
        kind: "fetched",
        url: outcome.url,
        document,
        links,
        hash: createHash("sha1").update(JSON.stringify(document)).digest("hex"),
        etag: outcome.etag,
        lastModified: outcome.lastModified,
      };
    }
    default:
      return outcome satisfies never;
  }
};
