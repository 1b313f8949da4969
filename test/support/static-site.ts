/**
 * A small docs site on a free loopback port, for the crawler's tests and bench: it serves a
 * folder's files with an ETag and Last-Modified, answers conditional requests with 304, and
 * counts what it answered. A generated sitemap, robots.txt, extra routes (redirects, status
 * codes) and page changes are set per test.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";

export interface SiteCounts {
  /** Requests by path. */
  readonly requests: Map<string, number>;
  /** Page requests answered 200 and 304. */
  ok: number;
  notModified: number;
}

export interface StaticSiteOptions {
  readonly root: string;
  /** Serve /sitemap.xml listing every page ("lastmod": with each file's lastmod). */
  readonly sitemap?: "plain" | "lastmod" | "none";
  readonly robots?: string;
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".md": "text/markdown",
  ".txt": "text/plain",
};

const listFiles = (root: string, folder = root): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(root, join(folder, entry.name))
      : [relative(root, join(folder, entry.name)).split("\\").join("/")],
  );

export const startStaticSite = (options: StaticSiteOptions) => {
  const files = new Map<
    string,
    { body: Uint8Array<ArrayBuffer>; etag: string; modified: string; version: number }
  >();
  const stamp = (body: Uint8Array<ArrayBuffer>, version: number) => ({
    body,
    etag: `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`,
    modified: new Date(Date.UTC(2026, 0, 1) + version * 60_000).toUTCString(),
    version,
  });
  for (const path of listFiles(options.root))
    files.set(`/${path}`, stamp(new Uint8Array(readFileSync(join(options.root, path))), 0));
  const routes = new Map<string, (request: Request) => Response>();
  const counts: SiteCounts = { requests: new Map(), ok: 0, notModified: 0 };
  let robots = options.robots;
  let sitemapMode = options.sitemap ?? "plain";
  let base = "";
  let failing = false;

  const sitemap = () => {
    const pages = [...files].filter(([path]) => path.endsWith(".html"));
    const urls = pages.map(([path, file]) => {
      const lastmod =
        sitemapMode === "lastmod"
          ? `<lastmod>2026-01-01T00:${String(file.version % 60).padStart(2, "0")}:00Z</lastmod>`
          : "";
      return `<url><loc>${base}${path}</loc>${lastmod}</url>`;
    });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("\n")}</urlset>`;
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => {
      const url = new URL(request.url);
      const path = decodeURIComponent(url.pathname);
      counts.requests.set(path, (counts.requests.get(path) ?? 0) + 1);
      if (failing) return new Response("down for maintenance", { status: 503 });
      const route = routes.get(path);
      if (route !== undefined) return route(request);
      if (path === "/robots.txt")
        return robots === undefined ? new Response("not found", { status: 404 }) : new Response(robots);
      if (path === "/sitemap.xml" && sitemapMode !== "none")
        return new Response(sitemap(), { headers: { "Content-Type": "application/xml" } });
      const served = path.endsWith("/") ? `${path}index.html` : path;
      const file = files.get(served);
      if (file === undefined) return new Response("not found", { status: 404 });
      if (request.headers.get("if-none-match") === file.etag) {
        counts.notModified++;
        return new Response(null, { status: 304, headers: { ETag: file.etag } });
      }
      counts.ok++;
      return new Response(file.body, {
        headers: {
          "Content-Type": TYPES[extname(served)] ?? "application/octet-stream",
          ETag: file.etag,
          "Last-Modified": file.modified,
        },
      });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  return {
    url: base,
    counts,
    /** Replaces a page's content (a new ETag, Last-Modified and sitemap lastmod). */
    change: (path: string, body: string) => {
      const before = files.get(path);
      files.set(path, stamp(new TextEncoder().encode(body), (before?.version ?? 0) + 1));
    },
    remove: (path: string) => files.delete(path),
    read: (path: string) => new TextDecoder().decode(files.get(path)?.body),
    pages: () => [...files.keys()].filter((path) => path.endsWith(".html")),
    route: (path: string, answer: (request: Request) => Response) => routes.set(path, answer),
    setRobots: (text: string | undefined) => {
      robots = text;
    },
    setSitemap: (mode: "plain" | "lastmod" | "none") => {
      sitemapMode = mode;
    },
    /** Every request answered 503 while set: a site that is down. */
    setFailing: (down: boolean) => {
      failing = down;
    },
    resetCounts: () => {
      counts.requests.clear();
      counts.ok = 0;
      counts.notModified = 0;
    },
    stop: () => server.stop(true),
  };
};

export type StaticSite = ReturnType<typeof startStaticSite>;
