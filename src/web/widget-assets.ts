/**
 * GET /widget.js and /widget-pay.js (and the console's /admin/console.js): the bundles `npm
 * start` built into dist/widget/ (see src/bundles/build.ts). Read once and kept in memory. Any
 * page may load the widget's: they are public, and the pay bundle is imported as a module, which
 * browsers fetch with CORS. The console's is served with its own headers (no CORS).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Context } from "hono";
import { WIDGET_DIST } from "../bundles/paths.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";

export const WIDGET_FILES = ["widget.js", "widget-pay.js", "admin.js"] as const;
export type WidgetFile = (typeof WIDGET_FILES)[number];

/** Headers of the widget's bundles: public, loadable from any page. */
export const PUBLIC_ASSET_HEADERS = {
  "Content-Type": "text/javascript; charset=utf-8",
  "Access-Control-Allow-Origin": "*",
  // Short: a new version reaches visitors within minutes, and revalidation is cheap.
  "Cache-Control": "public, max-age=300",
  "X-Content-Type-Options": "nosniff",
};

export const widgetAssets = (
  dist: string = WIDGET_DIST,
  headers: Readonly<Record<string, string>> = PUBLIC_ASSET_HEADERS,
) => {
  const cache = new Map<WidgetFile, string>();
  return async (c: Context<AppEnv>, file: WidgetFile): Promise<Response> => {
    let code = cache.get(file);
    if (code === undefined) {
      code = await readFile(join(dist, file), "utf8").catch(() => undefined);
      if (code === undefined)
        return c.json(
          {
            success: false,
            error: `${file} is not built: run \`npm start\` (or \`bun src/bundles/build.ts\`) first`,
            code: "NOT_FOUND",
          },
          404,
        );
      cache.set(file, code);
    }
    return c.body(code, 200, headers);
  };
};
