/**
 * The owner's console and its API, mounted only with a door (ADMIN_TOKEN, or a hosted site's
 * owner token): without one both routers are empty, so /admin and /api/admin/... are the
 * service's plain 404.
 */
import { Hono } from "hono";
import type { SitesSummary } from "../../../core/insights/sites-summary.ts";
import type { DocsSyncRecord } from "../../../core/ports/docs-sync.ts";
import type { TrustProxy } from "../../../core/trust-proxy.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import type { FailureLimiter } from "../../hono-kit/failure-limiter.ts";
import type { InsightsRecorder } from "../../hono-kit/insights-recorder.ts";
import type { AppRuntime } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { adminApiRoutes } from "./admin-api.ts";
import { adminConsoleRoutes } from "./admin-console.ts";
import { adminCredentials, type ConsoleDoor } from "./admin-credentials.ts";
import { sessionCookie } from "./admin-session-cookie.ts";
import { consoleNamer } from "./console-name.ts";

export interface AdminDeps {
  /** What opens the console (admin-credentials.ts); undefined: no console. */
  readonly door: ConsoleDoor | undefined;
  /** A hosted site's id: its console's cookie is its own (undefined: the operator's console). */
  readonly site?: string | undefined;
  /** A hosted site's title, which names its console (else its id; the default site's: its docs' title). */
  readonly siteTitle?: string | undefined;
  readonly runtime: AppRuntime;
  readonly metrics: Metrics;
  readonly recorder: InsightsRecorder;
  readonly widgetDist?: string | undefined;
  /** Which peers may say the browser used https (X-Forwarded-Proto), for the cookie's Secure flag. */
  readonly trustProxy: TrustProxy;
  /** PUBLIC_ORIGIN: when https, the session cookie is `__Host-` and Secure whatever the proxy says. */
  readonly publicOrigin: string | undefined;
  /** The background sync of DOCS_URL, whose last record the console shows. */
  readonly docsSync?: { readonly last: () => Promise<DocsSyncRecord | undefined> } | undefined;
  /** The hosted sites' summary: only the operator's console is given it. */
  readonly sitesSummary?: SitesSummary | undefined;
  /** Wrong tokens per client, one count for every site's console (ADMIN_TOKEN opens them all). */
  readonly lockout: FailureLimiter;
}

/** `api` goes under /api/admin, `console` under /admin. */
export const adminRoutes = ({
  door,
  site,
  siteTitle,
  runtime,
  metrics,
  recorder,
  widgetDist,
  trustProxy,
  publicOrigin,
  docsSync,
  sitesSummary,
  lockout,
}: AdminDeps) => {
  if (door === undefined) return { api: new Hono<AppEnv>(), console: new Hono<AppEnv>() };
  // One limiter for the API and the login form: guesses through either count together.
  const access = {
    credentials: adminCredentials(door),
    limiter: lockout,
    metrics,
    cookie: sessionCookie(trustProxy, publicOrigin, site),
  };
  return {
    api: adminApiRoutes({ runtime, recorder, access, docsSync, sitesSummary }),
    // A hosted site's console is under /sites/<id>: its form, script and calls stay there.
    console: adminConsoleRoutes(
      access,
      consoleNamer(runtime, site === undefined ? undefined : { id: site, title: siteTitle }),
      widgetDist,
      site === undefined ? "" : `/sites/${site}`,
    ),
  };
};
