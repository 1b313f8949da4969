/**
 * Markdown to sections with marked's lexer (CommonMark + GFM tables): headings open sections,
 * code blocks are kept whole, inline code keeps its text (`Map<K, V>`, `-- <files>`), escapes
 * and entities are resolved, links and images keep their text, HTML comments and tags go.
 * Front matter is dropped, its `title:` used when the page has no heading of its own.
 */
import { decodeHTML } from "entities";
import { Lexer, type Token, type Tokens } from "marked";
import { collapse, type ParsedDocument, type SectionBuilder, sectionBuilder } from "./parsed.ts";
import { slugger } from "./slug.ts";

const FRONT_MATTER =
  /^(?:---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)|\+\+\+\r?\n([\s\S]*?)\r?\n\+\+\+)[ \t]*(?:\r?\n|$)/;

/** Inline tokens as text; `code` wraps inline code in backticks (prose) or not (headings). */
export const inlineText = (tokens: ReadonlyArray<Token> | undefined, code: "marked" | "plain"): string => {
  let out = "";
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "codespan":
        out += code === "marked" ? `\`${decodeHTML(token.text)}\`` : decodeHTML(token.text);
        break;
      case "escape":
        out += token.text;
        break;
      case "br":
        out += "\n";
        break;
      case "html":
        break;
      case "image":
        out += (token as Tokens.Image).text;
        break;
      case "text":
        out += "tokens" in token && token.tokens ? inlineText(token.tokens, code) : decodeHTML(token.text);
        break;
      default:
        out +=
          "tokens" in token && token.tokens
            ? inlineText(token.tokens, code)
            : "text" in token
              ? decodeHTML(String(token.text))
              : "";
    }
  }
  return out;
};

/**
 * A list as "- item" lines (nested lists indented); a code block inside an item ends the lines
 * so far and is added as a code block of its own, so it is never split.
 */
const addList = (doc: SectionBuilder, list: Tokens.List, depth = 0, lines: string[] = []): string[] => {
  list.items.forEach((item, i) => {
    const marker = list.ordered ? `${Number(list.start || 1) + i}.` : "-";
    let first = true;
    for (const token of item.tokens) {
      if (token.type === "list") {
        addList(doc, token as Tokens.List, depth + 1, lines);
      } else if (token.type === "code") {
        if (lines.length > 0) doc.add({ kind: "prose", text: lines.splice(0).join("\n") });
        doc.add({ kind: "code", text: fence(token as Tokens.Code) });
      } else {
        const text = collapse(inlineText("tokens" in token ? token.tokens : [token], "marked"));
        if (text === "") continue;
        lines.push(`${"  ".repeat(depth)}${first ? `${marker} ` : "  "}${text}`);
        first = false;
      }
    }
  });
  if (depth === 0 && lines.length > 0) doc.add({ kind: "prose", text: lines.join("\n") });
  return lines;
};

const tableText = (table: Tokens.Table): string =>
  [table.header, ...table.rows]
    .map((row) => `| ${row.map((cell) => collapse(inlineText(cell.tokens, "marked"))).join(" | ")} |`)
    .join("\n");

const fence = (code: Tokens.Code): string => {
  const longest = Math.max(2, ...(code.text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = "`".repeat(longest + 1);
  return `${marks}${code.lang ?? ""}\n${code.text}\n${marks}`;
};

/** Adds one block-level token to the document. */
const addBlock = (doc: SectionBuilder, slug: (text: string) => string, token: Token): void => {
  switch (token.type) {
    case "heading": {
      const text = collapse(inlineText(token.tokens, "plain"));
      doc.heading(token.depth, text, slug(text));
      return;
    }
    case "code":
      doc.add({ kind: "code", text: fence(token as Tokens.Code) });
      return;
    case "paragraph":
    case "text": {
      const text = inlineText("tokens" in token ? token.tokens : [token], "marked").trim();
      if (text !== "") doc.add({ kind: "prose", text });
      return;
    }
    case "list":
      addList(doc, token as Tokens.List);
      return;
    case "table":
      doc.add({ kind: "prose", text: tableText(token as Tokens.Table) });
      return;
    case "blockquote":
      for (const inner of (token as Tokens.Blockquote).tokens) addBlock(doc, slug, inner);
      return;
    default:
    // html blocks (comments, raw tags), rules, spaces and link definitions carry no text.
  }
};

/** The title: the first h1, else front matter's title, else the first heading, else the file name. */
const titleOf = (tokens: ReadonlyArray<Token>, frontMatter: string | undefined, fallback: string): string => {
  const headings = tokens.filter((token): token is Tokens.Heading => token.type === "heading");
  const h1 = headings.find((heading) => heading.depth === 1);
  const declared = /^title:\s*["']?(.*?)["']?\s*$/m.exec(frontMatter ?? "")?.[1];
  const chosen = h1 ?? (declared ? undefined : headings[0]);
  return chosen !== undefined ? collapse(inlineText(chosen.tokens, "plain")) : declared || fallback;
};

/** Parses a Markdown document; `fallbackTitle` is used when it names no title at all. */
export const parseMarkdown = (source: string, fallbackTitle: string): ParsedDocument => {
  const front = FRONT_MATTER.exec(source);
  const body = front === null ? source : source.slice(front[0].length);
  const tokens = new Lexer({ gfm: true }).lex(body);
  const doc = sectionBuilder(titleOf(tokens, front?.[1] ?? front?.[2], fallbackTitle));
  const slug = slugger();
  for (const token of tokens) addBlock(doc, slug, token);
  return doc.finish();
};
