/**
 * The files that are pages, by extension. Apart from the parsers, so that finding a folder's
 * pages (walk.ts) loads no parser: a running service looks at its folder sites' pages every few
 * seconds and loads the parsers only when one changed.
 */
export const MARKDOWN_EXTENSIONS = [".md", ".markdown"];
export const HTML_EXTENSIONS = [".html", ".htm"];
export const TEXT_EXTENSIONS = [".txt"];
export const SUPPORTED_EXTENSIONS = [...MARKDOWN_EXTENSIONS, ...HTML_EXTENSIONS, ...TEXT_EXTENSIONS];
