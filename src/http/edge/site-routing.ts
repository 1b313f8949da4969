/**
 * How the edge finds the site a request is for: one rule for every site. A Host one site names
 * (whatever its port) is that site's, and that site's only: its usual paths, or its own
 * `/sites/<id>/`; another site's `/sites/<other>/` there is unknown (404), since the site's
 * owner runs that host and would read what the other site's visitors and owner send. On the
 * service's own names a path under `/sites/<id>/` is that site's (the rest of the path is what
 * its routes see), a path of the service's own routes is the service's, and anything else is
 * the root site's (the default site). The sites change when the sites file does, so the edge
 * asks on every request instead of keeping a copy.
 */
import type { EdgeRequest } from "../../hono-kit/app-env.ts";
import type { CorsPolicy } from "./cors.ts";
import { hostOf } from "./host-of.ts";

/** The prefix of every hosted site's paths on the service's own host names. */
export const SITES_PREFIX = "/sites/";

export interface RoutedSite {
  readonly id: string;
  readonly dispatch: (request: Request, facts: EdgeRequest) => Response | Promise<Response>;
  /** CORS for the site's own widget origins. */
  readonly cors: CorsPolicy;
  /** Whether an Origin is one of the site's widget origins (the Host guard's check). */
  readonly servesOrigin: (origin: string) => boolean;
}

export interface SiteRouting {
  /** The site `id` names, if one is hosted under that id. */
  readonly byId: (id: string) => RoutedSite | undefined;
  /** The site serving a Host name (lower case, port kept), if one names it. */
  readonly byHost: (host: string) => RoutedSite | undefined;
  /** Whether any site has host names of its own (else no Host header is read for routing). */
  readonly hasHosts: () => boolean;
  /** Whether a Host name (no port) belongs to a hosted site (for the Host guard). */
  readonly servesHost: (name: string) => boolean;
}

/** Every site: `root`, served at the root of the service's host names, and the others. */
export interface Sites extends SiteRouting {
  readonly root: RoutedSite;
}

/** The sites with `root` among them (under its id too), and `others` when the service hosts more. */
export const withRoot = (root: RoutedSite, others: SiteRouting | undefined): Sites => ({
  root,
  byId: (id) => (id === root.id ? root : others?.byId(id)),
  byHost: (host) => others?.byHost(host),
  hasHosts: () => others?.hasHosts() === true,
  servesHost: (name) => others?.servesHost(name) === true,
});

/** A request's site, the path its routes see, and the prefix taken off for them ("" at a root). */
export interface Routed {
  readonly site: RoutedSite;
  readonly path: string;
  readonly basePath: string;
}

/**
 * The site a path and Host are for: a site and the path its routes see, "unknown" (404), or
 * undefined: a path at the root of the service's own host names, which is the service's own
 * route or else the root site's (the edge decides).
 */
export const siteOf = (
  sites: SiteRouting,
  request: Request,
  path: string,
): Routed | "unknown" | undefined => {
  const host = sites.hasHosts() ? hostOf(request) : undefined;
  const hostSite = host === undefined ? undefined : sites.byHost(host.toLowerCase());
  if (path.startsWith(SITES_PREFIX)) {
    const end = path.indexOf("/", SITES_PREFIX.length);
    const id = path.slice(SITES_PREFIX.length, end < 0 ? undefined : end);
    const site = sites.byId(id);
    if (site === undefined || (hostSite !== undefined && hostSite.id !== site.id)) return "unknown";
    return { site, path: end < 0 ? "/" : path.slice(end), basePath: `${SITES_PREFIX}${id}` };
  }
  return hostSite === undefined ? undefined : { site: hostSite, path, basePath: "" };
};
