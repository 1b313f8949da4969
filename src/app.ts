/**
 * The HTTP service: `createApp` puts the service's own routes (service-router.ts) and every
 * site's (site-router.ts: the root site built from this runtime, and the hosted sites the
 * directory holds) behind the edge (request id, identity, Host guard, CORS, protection limit,
 * access log), which finds each request's site by one rule (site-routing.ts). It returns the
 * root site's Hono router (so `hc<App>` types a client), whose `fetch` enters through the edge.
 * No Bun- or Deno-specific API here, so both entry points serve the same app.
 */
import type { SitesSummary } from "../core/insights/sites-summary.ts";
import { DEFAULT_SITE } from "../core/payments/payment-settings.ts";
import { createEdge } from "./http/edge/edge.ts";
import { hostGuard } from "./http/edge/host-guard.ts";
import { type SiteRouting, withRoot } from "./http/edge/site-routing.ts";
import { type ServiceLimiters, serviceLimiters } from "./http/service-limiters.ts";
import { MAX_BODY_BYTES, type RouterDeps } from "./routers/service-deps.ts";
import { serviceRouter } from "./routers/service-router.ts";
import { type SiteFacts, siteRouter } from "./routers/site-router.ts";
import { operatorSeal } from "./sites/operator-seal.ts";
import { ownerHosts } from "./sites/owner-hosts.ts";
import { directoryEntry } from "./sites/site-entry.ts";

export { MAX_BODY_BYTES };

export interface AppDeps extends Omit<RouterDeps, "limiters"> {
  /** The sites hosted beside the root one (src/sites/); absent: this service answers for one site. */
  readonly sites?: SiteRouting | undefined;
  /** What the operator's console (the root site's) shows of each hosted site (src/sites/site-summary.ts). */
  readonly sitesSummary?: SitesSummary | undefined;
  /** The service's limits, one set for every site (service-limiters.ts); absent: fresh ones, for this app alone. */
  readonly limiters?: ServiceLimiters | undefined;
}

/** The address a request came from, as the entry point (Bun, Deno) or a test knows it. */
export interface Peer {
  readonly remoteAddress?: string | undefined;
}

/** The root site: the environment's settings, served at the root of the service's host names. */
const rootSite = (deps: AppDeps): SiteFacts => ({
  id: DEFAULT_SITE,
  basePath: "",
  title: undefined,
  productName: undefined,
  // No owner of its own: the operator's console, opened by ADMIN_TOKEN alone.
  ownerTokenSha256: undefined,
  sealSession: operatorSeal(deps.config.insights.adminToken),
  ownerHost: ownerHosts([], (name) => deps.sites?.servesHost(name) === true),
  sitesSummary: deps.sitesSummary,
});

export const createApp = (deps: AppDeps) => {
  const limiters = deps.limiters ?? serviceLimiters(deps.now);
  const routerDeps: RouterDeps = { ...deps, limiters };
  const root = siteRouter(routerDeps, rootSite(deps));
  const service = serviceRouter(routerDeps);
  const sites = withRoot(directoryEntry(DEFAULT_SITE, root, deps.config.allowedOrigins, []), deps.sites);
  const servicePaths = new Set(
    service.routes.map((route) => route.path).filter((path) => !path.includes("*")),
  );
  const edge = createEdge({
    routePaths: [...root.routes, ...service.routes].map((route) => route.path),
    service: { paths: servicePaths, dispatch: (request, facts) => service.fetch(request, facts) },
    logger: deps.logger,
    metrics: deps.metrics,
    trustProxy: deps.config.trustProxy,
    allowedOrigins: deps.config.allowedOrigins,
    hostGuard: hostGuard({
      bindHost: deps.config.host,
      publicOrigin: deps.config.surface.publicOrigin,
      allowedHosts: deps.config.surface.allowedHosts,
      allowedOrigins: deps.config.allowedOrigins,
      sites,
    }),
    sites,
    protectionRps: deps.config.ceilings["protection-limit"],
    maxBodyBytes: MAX_BODY_BYTES,
    bodyDeadlineMs: deps.config.surface.bodyDeadlineMs,
    maxInFlightPerClient: deps.config.ceilings["in-flight-per-client"],
    ...(deps.now === undefined ? {} : { now: deps.now }),
  });
  // Every request, from a server or from `app.request(path, init, peer)` in a test, enters
  // through the edge; the second argument is the peer, not Hono bindings.
  root.fetch = (request, peer?: Peer | object) =>
    edge(request, peer !== undefined && "remoteAddress" in peer ? peer.remoteAddress : undefined);
  return root;
};

export type App = ReturnType<typeof createApp>;
