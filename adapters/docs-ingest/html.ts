/**
 * HTML to sections, keeping the main text only: scripts, styles, navigation, headers and
 * footers are dropped, and <main> (or <article>) is used when the page has one. Headings
 * open sections (their id, when present, is the anchor); <pre> becomes a code block.
 */
import { type ParsedDocument, sectionBuilder } from "./parsed.ts";
import { slugger } from "./slug.ts";

const DROPPED =
  /<(script|style|noscript|template|svg|nav|header|footer|iframe|button)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK_TAGS = new Set(
  "p div section article main aside li ul ol dl dt dd tr table thead tbody blockquote figure figcaption br hr form".split(
    " ",
  ),
);
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  copy: "©",
};

/** Decodes numeric and common named character references. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });

const mainPart = (html: string): string => {
  const cleaned = html.replace(/<!--[\s\S]*?-->/g, "").replace(DROPPED, " ");
  for (const tag of ["main", "article", "body"]) {
    // An unclosed element runs to the end of the page.
    const found = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)(?:</${tag}\\s*>|$)`, "i").exec(cleaned);
    if (found !== null) return found[1]!;
  }
  return cleaned;
};

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined);

/**
 * The element's inner HTML from `from`, and where scanning resumes after its end tag. Without
 * an end tag, `unclosed` says where the element ends: a heading at the next tag, a <pre> at
 * the end of the page.
 */
const innerUntilClose = (
  body: string,
  name: string,
  from: number,
  unclosed: "next-tag" | "end",
): { inner: string; next: number } => {
  const close = new RegExp(`</${name}\\s*>`, "gi");
  close.lastIndex = from;
  const found = close.exec(body);
  if (found !== null) return { inner: body.slice(from, found.index), next: close.lastIndex };
  const nextTag = body.indexOf("<", from);
  const end = unclosed === "end" || nextTag < 0 ? body.length : nextTag;
  return { inner: body.slice(from, end), next: end };
};

/** Parses an HTML page; `fallbackTitle` is used when it has neither <h1> nor <title>. */
export const parseHtml = (html: string, fallbackTitle: string): ParsedDocument => {
  const pageTitle = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  const body = mainPart(html);
  const doc = sectionBuilder();
  const slug = slugger();
  let text = "";
  const flush = () => {
    const prose = decodeEntities(text)
      .replace(/[ \t\r\n]+/g, " ")
      .trim();
    if (prose !== "") doc.add({ kind: "prose", text: prose });
    text = "";
  };
  const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g;
  let position = 0;
  for (let match = tagPattern.exec(body); match !== null; match = tagPattern.exec(body)) {
    text += body.slice(position, match.index);
    position = tagPattern.lastIndex;
    const [tag, closing, rawName] = match;
    const name = rawName!.toLowerCase();
    if (closing === "" && /^h[1-6]$/.test(name)) {
      flush();
      const { inner, next } = innerUntilClose(body, name, position, "next-tag");
      const heading = decodeEntities(inner.replace(/<[^>]*>/g, ""))
        .replace(/\s+/g, " ")
        .trim();
      position = next;
      tagPattern.lastIndex = position;
      doc.heading(Number(name[1]), heading, attribute(tag, "id") ?? slug(heading));
    } else if (closing === "" && name === "pre") {
      flush();
      const { inner, next } = innerUntilClose(body, "pre", position, "end");
      const code = decodeEntities(inner.replace(/<[^>]*>/g, "")).replace(/^\n+|\s+$/g, "");
      if (code !== "") doc.add({ kind: "code", text: `\`\`\`\n${code}\n\`\`\`` });
      position = next;
      tagPattern.lastIndex = position;
    } else if (BLOCK_TAGS.has(name)) {
      flush();
      if (closing === "" && name === "li") text = "- ";
    } else if (name === "td" || name === "th") {
      text += " ";
    }
  }
  text += body.slice(position);
  flush();
  const fromTitleTag = pageTitle === undefined ? "" : decodeEntities(pageTitle).replace(/\s+/g, " ").trim();
  return doc.finish(fromTitleTag || fallbackTitle);
};
