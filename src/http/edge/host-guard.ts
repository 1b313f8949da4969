/**
 * The Host and Origin allow-list, against DNS rebinding: a page whose name re-resolves to the
 * service's address is same-origin with it in the browser, so it could ask /mcp (the LLM key),
 * use the demo faucet or burn the console's login limiter. The browser still sends that page's
 * name as Host and, on a cross-origin or non-GET fetch, its origin as Origin, so:
 *
 * - On: bound to a loopback address, or PUBLIC_ORIGIN / ALLOWED_HOSTS set. A Host is served when
 *   its name (any port) is `localhost`, `127.0.0.1`, `[::1]`, PUBLIC_ORIGIN's or in ALLOWED_HOSTS
 *   (a loopback name is safe on any bind: no other site's page can carry it). An Origin is
 *   served when it is a loopback origin, PUBLIC_ORIGIN, in ALLOWED_ORIGINS, or the request's own
 *   Host (same-origin), or `null` with Sec-Fetch-Site: same-origin (our own pages send it under
 *   Referrer-Policy: no-referrer). Anything else: 403 before any limiter or handler counts it.
 * - Off: bound elsewhere (0.0.0.0 in a container) with neither set. A proxy may rewrite Host to
 *   a name we cannot guess, so the service serves as before and says so once at start.
 *
 * Probes (/healthz, /readyz) skip the Host check only: a kubelet asks by the pod's IP. A request
 * without Host (HTTP/1.0) or without Origin is no browser's and passes.
 */
import { hostName } from "../../../core/host-name.ts";
import { inCidr, parseIp } from "../../../core/ip.ts";
import { hostOf } from "./host-of.ts";
import type { RoutedSite, SiteRouting } from "./site-routing.ts";

/** Why a request was refused, or "ok". */
export type HostVerdict = "ok" | "host" | "origin";
/** `site`: the hosted site the request is routed to (its widget origins), undefined for the default site. */
export type HostGuard = (
  request: Request,
  path: string,
  site?: Pick<RoutedSite, "servesOrigin"> | undefined,
) => HostVerdict;

export interface HostGuardOptions {
  /** HOST: the address the server binds. */
  readonly bindHost: string;
  readonly publicOrigin: string | undefined;
  readonly allowedHosts: ReadonlyArray<string>;
  readonly allowedOrigins: ReadonlyArray<string>;
  /** The hosted sites' own host names (they change with the sites file). */
  readonly sites?: Pick<SiteRouting, "servesHost"> | undefined;
}

/** The names always the service's own: no other site's page can carry them. */
export const LOOPBACK_NAMES: ReadonlyArray<string> = ["localhost", "127.0.0.1", "[::1]"];
/**
 * Host values whose verdict is kept: a service is asked by a handful of names, and taking the
 * name out of the value on every request was a visible part of a status request's edge
 * (docs/performance.md). Past this many, the kept ones are dropped at once, so a client sending
 * random Host values costs what it did before the cache, and the memory stays bounded.
 */
const MAX_KEPT_HOSTS = 256;
const PROBES: ReadonlyArray<string> = ["/healthz", "/readyz"];

/** Whether HOST is a loopback address (127.0.0.0/8, ::1) or `localhost`. */
export const bindsLoopback = (bindHost: string): boolean => {
  if (bindHost.toLowerCase() === "localhost") return true;
  const ip = parseIp(bindHost);
  return ip !== undefined && (inCidr(ip, "127.0.0.0/8") || inCidr(ip, "::1/128"));
};

/** Whether the allow-list is on for these settings (off: serve any Host, warn at start). */
export const hostGuardOn = (options: HostGuardOptions): boolean =>
  bindsLoopback(options.bindHost) || options.publicOrigin !== undefined || options.allowedHosts.length > 0;

/** The name part of a Host value, lower case ("[::1]:3000" -> "[::1]", "LocalHost:80" -> "localhost"). */
const nameOf = (host: string): string => hostName(host).toLowerCase();

/** The guard for these settings; undefined when it is off. */
export const hostGuard = (options: HostGuardOptions): HostGuard | undefined => {
  if (!hostGuardOn(options)) return undefined;
  const names = new Set([...LOOPBACK_NAMES, ...options.allowedHosts]);
  if (options.publicOrigin !== undefined) names.add(new URL(options.publicOrigin).hostname);
  const origins = new Set(options.allowedOrigins);
  const { sites, publicOrigin } = options;

  // A hosted site's request is served from its own widget origins, the default site's from
  // ALLOWED_ORIGINS: one site's pages reach no other site (nor the default one) cross-origin.
  const originServed = (
    request: Request,
    origin: string,
    host: string | undefined,
    site: Pick<RoutedSite, "servesOrigin"> | undefined,
  ): boolean => {
    if (origin === publicOrigin || (site === undefined ? origins.has(origin) : site.servesOrigin(origin)))
      return true;
    // "null": a sandboxed frame or a file, or a page of ours under Referrer-Policy: no-referrer
    // (the console's form posts); the browser's own Sec-Fetch-Site tells them apart.
    if (origin === "null") return request.headers.get("sec-fetch-site") === "same-origin";
    const match = /^https?:\/\/([^/]+)$/.exec(origin);
    if (match === null) return false; // another scheme
    const originHost = (match[1] as string).toLowerCase();
    return LOOPBACK_NAMES.includes(nameOf(originHost)) || originHost === host?.toLowerCase();
  };

  // Only the fixed names' verdicts are kept: the hosted sites' names change with the sites file.
  let kept = new Map<string, boolean>();
  const hostServed = (host: string): boolean => {
    let served = kept.get(host);
    if (served === undefined) {
      served = names.has(nameOf(host));
      if (kept.size >= MAX_KEPT_HOSTS) kept = new Map();
      kept.set(host, served);
    }
    return served || sites?.servesHost(nameOf(host)) === true;
  };

  return (request, path, site) => {
    const host = hostOf(request);
    if (host !== undefined && !hostServed(host) && !PROBES.includes(path)) return "host";
    const origin = request.headers.get("origin");
    if (origin !== null && !originServed(request, origin, host, site)) return "origin";
    return "ok";
  };
};
