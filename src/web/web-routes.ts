/** The service's face: the demo page and the widget bundles. */
import { Hono } from "hono";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { DEMO_PAGE, DEMO_PAGE_HEADERS } from "./demo-page.ts";
import { widgetAssets } from "./widget-assets.ts";

export interface WebDeps {
  /** Where the bundles are (default dist/widget/). */
  readonly widgetDist?: string | undefined;
}

/**
 * Mounted at the root: GET / (the demo docs page, or a hosted site's page for the address it is
 * asked at: PUBLIC_ORIGIN when set, else the request's own, which the Host guard vetted) and the
 * widget bundles.
 */
export const webPageRoutes = (
  { widgetDist }: WebDeps,
  page: string | ((origin: string) => string) = DEMO_PAGE,
  publicOrigin?: string,
) => {
  const assets = widgetAssets(widgetDist);
  return new Hono<AppEnv>()
    .get("/", (c) =>
      c.html(
        typeof page === "string" ? page : page(publicOrigin ?? new URL(c.req.url).origin),
        200,
        DEMO_PAGE_HEADERS,
      ),
    )
    .get("/widget.js", (c) => assets(c, "widget.js"))
    .get("/widget-pay.js", (c) => assets(c, "widget-pay.js"));
};
