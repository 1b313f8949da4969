/**
 * Which URLs belong to the docs a start URL names: same allowed origin, under the start's
 * folder, and the source (citation path) each page gets, relative to that folder as file
 * ingest makes it relative to the docs folder.
 */

export interface SiteScope {
  readonly origin: string;
  /** The start's folder path, ending in "/". */
  readonly root: string;
}

/** "https://x/docs" and "https://x/docs/" both mean the folder /docs/; "https://x/docs/a.html" its folder. */
export const scopeOf = (start: string): SiteScope => {
  const url = new URL(start);
  const path = url.pathname;
  const last = path.slice(path.lastIndexOf("/") + 1);
  const root =
    last === "" ? path : last.includes(".") ? path.slice(0, path.length - last.length) : `${path}/`;
  return { origin: url.origin, root };
};

/** Whether `url` is a page of these docs. */
export const inScope = (scope: SiteScope, url: string): boolean => {
  const parsed = new URL(url);
  return parsed.origin === scope.origin && parsed.pathname.startsWith(scope.root);
};

/**
 * The page's path below the root, decoded; a folder page ("guide/") is its index.html, as the
 * static site generators write it.
 */
export const sourceOf = (scope: SiteScope, url: string): string => {
  const parsed = new URL(url);
  const below = decodeURIComponent(parsed.pathname.slice(scope.root.length));
  const path = below === "" || below.endsWith("/") ? `${below}index.html` : below;
  return parsed.search === "" ? path : `${path}${parsed.search}`;
};

const NOT_PAGES =
  /\.(png|jpe?g|gif|svg|webp|ico|pdf|zip|gz|tgz|tar|bz2|xz|7z|mp4|webm|mp3|wav|ogg|woff2?|ttf|otf|eot|css|js|mjs|map|json|xml|wasm|exe|dmg|deb|rpm|epub)$/i;

/** A link whose name says it is no page (an image, an archive, a stylesheet): not worth a request. */
export const namedAsFile = (url: string): boolean => NOT_PAGES.test(new URL(url).pathname);
