/**
 * Markdown to DOM nodes, safely: marked's lexer parses (a maintained CommonMark/GFM parser), and
 * this renderer builds elements with createElement and textContent only, never innerHTML. Raw
 * HTML in an answer is shown as text, links keep only http(s) and relative targets, images
 * become links (no request leaves without a click), code blocks get a copy button, and `[n]`
 * citations become links to the answer's sources.
 */
import { Lexer, type Token, type Tokens } from "marked";
import { safeHref } from "../browser/safe-url.ts";

export interface MarkdownOptions {
  /** The element a citation [n] points to, or undefined when the answer has no source n. */
  readonly citation: (n: number) => { readonly href: string; readonly label: string } | undefined;
  /** Copies a code block's text; resolves when done. */
  readonly copy: (text: string) => Promise<void>;
}

type Parent = HTMLElement | DocumentFragment;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  return node;
};

/** Appends a new `tag` element to `parent`, its content drawn by `fill`. */
const child = <K extends keyof HTMLElementTagNameMap>(
  parent: Parent,
  tag: K,
  fill: (node: HTMLElementTagNameMap[K]) => void,
) => {
  const node = el(tag);
  fill(node);
  parent.append(node);
};

/** Text with its [n] citations turned into links. */
const citedText = (parent: Parent, text: string, options: MarkdownOptions) => {
  let last = 0;
  for (const match of text.matchAll(/\[(\d{1,2})\]/g)) {
    const target = options.citation(Number(match[1]));
    if (target === undefined) continue;
    parent.append(text.slice(last, match.index));
    const link = el("a", "cite");
    link.href = target.href;
    link.textContent = match[0];
    link.setAttribute("aria-label", target.label);
    parent.append(link);
    last = match.index + match[0].length;
  }
  parent.append(text.slice(last));
};

const link = (parent: Parent, href: string | undefined, title: string | null | undefined) => {
  const safe = safeHref(href);
  if (safe === undefined) return parent;
  const a = el("a");
  a.href = safe;
  a.target = "_blank";
  a.rel = "noopener noreferrer nofollow";
  if (title) a.title = title;
  parent.append(a);
  return a;
};

const inline = (parent: Parent, tokens: ReadonlyArray<Token> | undefined, options: MarkdownOptions): void => {
  for (const token of tokens ?? []) {
    const t = token as Tokens.Generic;
    switch (token.type) {
      case "strong":
      case "em":
      case "del":
        child(parent, token.type, (node) => inline(node, t.tokens, options));
        break;
      case "codespan":
        parent.append(Object.assign(el("code"), { textContent: (token as Tokens.Codespan).text }));
        break;
      case "br":
        parent.append(el("br"));
        break;
      case "link": {
        const target = link(parent, (token as Tokens.Link).href, (token as Tokens.Link).title);
        inline(target, t.tokens, options);
        break;
      }
      case "image": {
        const image = token as Tokens.Image;
        link(parent, image.href, image.title).append(image.text ? `[image: ${image.text}]` : "[image]");
        break;
      }
      case "text":
        if (t.tokens !== undefined) inline(parent, t.tokens, options);
        else citedText(parent, (token as Tokens.Text).text, options);
        break;
      case "escape":
        parent.append((token as Tokens.Escape).text);
        break;
      default:
        // Raw HTML (html, tag) and anything unknown: shown as the text it is, never parsed.
        citedText(parent, t.raw, options);
    }
  }
};

const codeBlock = (code: Tokens.Code, options: MarkdownOptions) => {
  const box = el("div", "code");
  const copy = el("button", "copy");
  copy.type = "button";
  copy.textContent = "Copy";
  copy.setAttribute("aria-label", "Copy code");
  copy.addEventListener("click", () => {
    void options.copy(code.text).then(
      () => {
        copy.textContent = "Copied";
        setTimeout(() => {
          copy.textContent = "Copy";
        }, 1500);
      },
      () => {
        copy.textContent = "Copy failed";
      },
    );
  });
  const pre = el("pre");
  pre.tabIndex = 0;
  pre.append(Object.assign(el("code"), { textContent: code.text }));
  box.append(copy, pre);
  return box;
};

const block = (parent: Parent, tokens: ReadonlyArray<Token>, options: MarkdownOptions): void => {
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "def":
        break;
      case "paragraph":
      case "text":
        child(parent, "p", (p) => inline(p, (token as Tokens.Paragraph).tokens, options));
        break;
      case "heading": {
        // The dialog's title is an h2: answer headings start at h3.
        const depth = Math.min(6, Math.max(3, (token as Tokens.Heading).depth + 2));
        child(parent, `h${depth}` as "h3", (h) => inline(h, (token as Tokens.Heading).tokens, options));
        break;
      }
      case "code":
        parent.append(codeBlock(token as Tokens.Code, options));
        break;
      case "blockquote":
        child(parent, "blockquote", (quote) => block(quote, (token as Tokens.Blockquote).tokens, options));
        break;
      case "list": {
        const list = token as Tokens.List;
        const node = el(list.ordered ? "ol" : "ul");
        if (list.ordered && typeof list.start === "number" && list.start !== 1)
          node.setAttribute("start", String(list.start));
        for (const item of list.items) {
          const li = el("li");
          block(li, item.tokens, options);
          node.append(li);
        }
        parent.append(node);
        break;
      }
      case "table": {
        const table = token as Tokens.Table;
        const node = el("table");
        const row = (cells: ReadonlyArray<Tokens.TableCell>, tag: "th" | "td") => {
          const tr = el("tr");
          for (const cell of cells) {
            const td = el(tag);
            inline(td, cell.tokens, options);
            tr.append(td);
          }
          return tr;
        };
        node.append(row(table.header, "th"), ...table.rows.map((cells) => row(cells, "td")));
        const scroll = el("div", "table");
        scroll.append(node);
        parent.append(scroll);
        break;
      }
      case "hr":
        parent.append(el("hr"));
        break;
      default:
        // Raw HTML blocks and anything unknown: their text, inert.
        child(parent, "p", (p) => citedText(p, (token as Tokens.Generic).raw, options));
    }
  }
};

/** The answer's markdown as DOM nodes (see the file comment for what is allowed). */
export const renderMarkdown = (markdown: string, options: MarkdownOptions): DocumentFragment => {
  const fragment = document.createDocumentFragment();
  block(fragment, Lexer.lex(markdown, { gfm: true, breaks: false }), options);
  return fragment;
};
