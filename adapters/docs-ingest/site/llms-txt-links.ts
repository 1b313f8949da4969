/**
 * llms.txt (llmstxt.org): a Markdown file whose links name the pages worth reading, often
 * their Markdown versions. The links are read with marked's lexer, not patterns.
 */
import { Lexer, type Token } from "marked";

const linksOf = (tokens: ReadonlyArray<Token>, out: string[]) => {
  for (const token of tokens) {
    if (token.type === "link") out.push((token as { href: string }).href);
    const nested = (token as { tokens?: Token[]; items?: Token[] }).tokens ?? [];
    const items = (token as { items?: Token[] }).items ?? [];
    linksOf(nested, out);
    linksOf(items, out);
  }
};

/** Every link of an llms.txt, absolute against `base`, in order, without repeats. */
export const llmsTxtLinks = (markdown: string, base: string): ReadonlyArray<string> => {
  const hrefs: string[] = [];
  linksOf(new Lexer({ gfm: true }).lex(markdown), hrefs);
  const urls = hrefs.flatMap((href) => (URL.canParse(href, base) ? [new URL(href, base).href] : []));
  return [...new Set(urls.map((url) => url.replace(/#.*$/, "")))];
};

/** Whether a URL names an llms.txt file (a list of links) or llms-full.txt (the docs in one file). */
export const llmsKind = (url: string): "list" | "full" | undefined => {
  const name = new URL(url).pathname.split("/").pop() ?? "";
  if (name === "llms.txt") return "list";
  if (name === "llms-full.txt") return "full";
  return undefined;
};
