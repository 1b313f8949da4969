/**
 * GET /widget.js and /widget-pay.js: the bundles `npm start` built into dist/widget/ (see
 * src/widget/build.ts). Read once and kept in memory. Any page may load them: they are public,
 * and the pay bundle is imported as a module, which browsers fetch with CORS.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import { WIDGET_DIST } from "../widget/build-paths.ts";

export const WIDGET_FILES = ["widget.js", "widget-pay.js"] as const;
export type WidgetFile = (typeof WIDGET_FILES)[number];

const HEADERS = {
  "Content-Type": "text/javascript; charset=utf-8",
  "Access-Control-Allow-Origin": "*",
  // Short: a new version reaches visitors within minutes, and revalidation is cheap.
  "Cache-Control": "public, max-age=300",
  "X-Content-Type-Options": "nosniff",
};

export const widgetAssets = (dist: string = WIDGET_DIST) => {
  const cache = new Map<WidgetFile, string>();
  return async (c: Context<AppEnv>, file: WidgetFile): Promise<Response> => {
    let code = cache.get(file);
    if (code === undefined) {
      code = await readFile(join(dist, file), "utf8").catch(() => undefined);
      if (code === undefined)
        return c.json(
          {
            success: false,
            error: `${file} is not built: run \`npm start\` (or \`bun src/widget/build.ts\`) first`,
            code: "NOT_FOUND",
          },
          404,
        );
      cache.set(file, code);
    }
    return c.body(code, 200, HEADERS);
  };
};
