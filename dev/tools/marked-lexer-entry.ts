/**
 * marked's lexer alone, called as `src/widget/markdown-dom.ts` calls it: bundled by bundle-sizes.ts
 * to state how much of `widget.js` the markdown parser is.
 */
import { Lexer } from "marked";

(globalThis as { lexMarkdown?: unknown }).lexMarkdown = (markdown: string) =>
  Lexer.lex(markdown, { gfm: true, breaks: false });
