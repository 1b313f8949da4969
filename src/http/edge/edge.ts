/**
 * The per-request work around the router, in one synchronous function instead of a chain of
 * Hono middleware: request id (echoed in X-Request-Id), client identity, the Host and Origin
 * allow-list (first, so a refused request counts toward no limit), CORS, the protection limit,
 * the access log line and request metrics. The router gets the results as its `env` (`c.env`).
 * When a route answers synchronously (a status read on the memory store) no promise is made at
 * all.
 */
import { getPath } from "hono/utils/url";
import { peerIsTrustedProxy } from "../../../core/client-identity.ts";
import type { TrustProxy } from "../../../core/trust-proxy.ts";
import type { EdgeRequest } from "../../hono-kit/app-env.ts";
import type { LogFields, Logger, ServiceLogger } from "../../observability/log.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { bufferBody, carriesBody } from "./body-deadline.ts";
import { corsPolicy } from "./cors.ts";
import type { HostGuard, HostVerdict } from "./host-guard.ts";
import { clientIdentity } from "./identify-client.ts";
import { protectionLimit } from "./protection-limit.ts";
import { requestIds } from "./request-id.ts";
import { type Routed, type Sites, siteOf } from "./site-routing.ts";

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;
const UNMATCHED = "unmatched";
/**
 * Per-request paths the protection limit counts: public and costly, or (probes) store-reading;
 * llms.txt lists a site's index, which it loads when not held (a hosted site's, site-indexes.ts).
 */
const isLimited = (path: string): boolean =>
  path.startsWith("/api/") ||
  path.startsWith("/x402/") ||
  path === "/mcp" ||
  path === "/readyz" ||
  path === "/llms.txt" ||
  path === "/llms-full.txt";
const FOREIGN = {
  host: { header: "host" },
  origin: { header: "origin" },
} as const satisfies Record<Exclude<HostVerdict, "ok">, { header: string }>;

export interface EdgeOptions {
  /** The routers' paths (metric labels): a site's and the service's. */
  readonly routePaths: ReadonlyArray<string>;
  /** The service's own routes (service-router.ts): its paths, asked on the service's host names only. */
  readonly service: {
    readonly paths: ReadonlySet<string>;
    readonly dispatch: (request: Request, facts: EdgeRequest) => Response | Promise<Response>;
  };
  readonly logger: ServiceLogger;
  readonly metrics: Metrics;
  readonly trustProxy: TrustProxy;
  /** ALLOWED_ORIGINS: CORS of the service's own routes (each site has its own). */
  readonly allowedOrigins: ReadonlyArray<string>;
  /** The Host and Origin allow-list (host-guard.ts); undefined: any Host and Origin is served. */
  readonly hostGuard?: HostGuard | undefined;
  /** Requests per second per identity per /api endpoint. */
  readonly protectionRps: number;
  /** Bodies larger than this are refused (413) before routing. */
  readonly maxBodyBytes: number;
  /** A body not complete within this many ms is answered 408, its connection closed. */
  readonly bodyDeadlineMs: number;
  /** Requests one identity may have in flight at once (more: 429 at once). */
  readonly maxInFlightPerClient: number;
  readonly now?: () => number;
  /** Every site the service hosts, the root (default) site among them (site-routing.ts). */
  readonly sites: Sites;
}

/** What the router gets as `c.env`; the request's logger is made only if a route logs. */
class RequestFacts implements EdgeRequest {
  #log: Logger | undefined;
  constructor(
    private readonly logger: Logger,
    readonly remoteAddress: string | undefined,
    readonly requestId: string,
    readonly identity: string,
    readonly path: string,
    readonly basePath: string,
    readonly corsHeaders: Readonly<Record<string, string>> | undefined,
  ) {}
  get log(): Logger {
    this.#log ??= new RequestLog(this.logger, this.requestId);
    return this.#log;
  }
}

/** The request's logger: every line carries its request id. */
class RequestLog implements Logger {
  constructor(
    private readonly logger: Logger,
    private readonly requestId: string,
  ) {}
  info(msg: string, fields?: LogFields) {
    this.logger.info(msg, { requestId: this.requestId, ...fields });
  }
  warn(msg: string, fields?: LogFields) {
    this.logger.warn(msg, { requestId: this.requestId, ...fields });
  }
  error(msg: string, fields?: LogFields) {
    this.logger.error(msg, { requestId: this.requestId, ...fields });
  }
}

export type Edge = (request: Request, remoteAddress: string | undefined) => Response | Promise<Response>;

export const createEdge = (options: EdgeOptions): Edge => {
  const { logger, metrics, trustProxy, service } = options;
  // Route labels for metrics and limiter keys: the router's own fixed paths, so a scan of random
  // URLs cannot grow either. A scan comparing strings beats a Map here: hashing the request's
  // fresh path string cost more than comparing it with the few routes (mostly by length).
  const labels = [...new Set(options.routePaths.filter((path) => !path.includes("*")))];
  const routeOf = (path: string): string => {
    for (const label of labels) if (label === path) return label;
    return UNMATCHED;
  };
  // The access line's path for the router's own paths, escaped once (looked up by the label
  // strings above, whose hashes the engine keeps, unlike a request's fresh path string).
  const labelJson = new Map(labels.map((label) => [label, JSON.stringify(label)]));
  const identify = clientIdentity(trustProxy);
  const { hostGuard, sites } = options;
  const nextRequestId = requestIds();
  const cors = corsPolicy(options.allowedOrigins);
  const overLimit = protectionLimit(options.protectionRps, options.now);
  const { maxBodyBytes, bodyDeadlineMs, maxInFlightPerClient } = options;
  // Requests in flight per identity: an entry exists only while one is, so the map stays small.
  const inFlight = new Map<string, number>();

  const release = (identity: string) => {
    const left = (inFlight.get(identity) ?? 1) - 1;
    if (left <= 0) inFlight.delete(identity);
    else inFlight.set(identity, left);
  };

  const tooManyRequests = () =>
    new Response(
      JSON.stringify({ success: false, error: "Too many requests, slow down", code: "RATE_LIMITED" }),
      {
        status: 429,
        headers: { "Content-Type": "application/json", "Retry-After": "1" },
      },
    );

  const refusal = (status: number, error: string, code: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ success: false, error, code }), {
      status,
      headers: { "Content-Type": "application/json", ...headers },
    });
  const bodyTooLate = () =>
    refusal(408, `Request body not complete within ${bodyDeadlineMs} ms`, "REQUEST_TIMEOUT", {
      Connection: "close",
    });
  const bodyTooLarge = () =>
    refusal(413, `Request body too large (at most ${maxBodyBytes} bytes)`, "BODY_TOO_LARGE", {
      Connection: "close",
    });
  const foreign = (verdict: Exclude<HostVerdict, "ok">) =>
    verdict === "host"
      ? refusal(403, "This service does not answer to that Host name", "HOST_NOT_ALLOWED")
      : refusal(403, "Requests from that Origin are not served", "ORIGIN_NOT_ALLOWED");
  const unknownSite = () => refusal(404, "No site is hosted under that id", "SITE_NOT_FOUND");
  const tooManyInFlight = () =>
    refusal(429, "Too many requests in flight from this client", "TOO_MANY_IN_FLIGHT", {
      "Retry-After": "1",
    });

  /** Reads the body within the deadline, then routes; the refusals close the connection. */
  const dispatchWithBody = async (
    to: EdgeOptions["service"]["dispatch"],
    request: Request,
    body: ReadableStream<Uint8Array>,
    facts: RequestFacts,
  ): Promise<Response> => {
    const buffered = await bufferBody(request, body, bodyDeadlineMs, maxBodyBytes);
    if (buffered.kind === "ok") return to(buffered.request, facts);
    if (buffered.kind === "too-large") return bodyTooLarge();
    metrics.count("request_body_timeouts_total");
    facts.log.warn("request body not complete in time", { identity: facts.identity, path: facts.path });
    return bodyTooLate();
  };

  return (request, remoteAddress) => {
    const started = performance.now();
    const method = request.method;
    // A proxy we trust may pass its request id on, so ids follow a request through it. Otherwise
    // a client does not choose the ids of our logs (and Bun is spared materialising the headers).
    const incoming = peerIsTrustedProxy(remoteAddress, trustProxy)
      ? request.headers.get("x-request-id")
      : null;
    const requestId = incoming !== null && INCOMING_ID.test(incoming) ? incoming : nextRequestId();
    const identity = identify(request, remoteAddress);
    const fullPath = getPath(request);
    // A site's request is routed as its own path, under its own CORS origins; the service's own
    // routes are asked at the root of its host names only.
    const found = siteOf(sites, request, fullPath);
    const ownRoute = found === undefined && service.paths.has(fullPath);
    const routed: Routed | undefined =
      found === "unknown" || ownRoute
        ? undefined
        : (found ?? { site: sites.root, path: fullPath, basePath: "" });
    const path = routed === undefined ? fullPath : routed.path;
    const route = routeOf(path);
    const siteCors = routed === undefined ? cors : routed.site.cors;
    const corsHeaders = siteCors.responseHeaders(request, path);
    const basePath = routed === undefined ? "" : routed.basePath;
    const facts = new RequestFacts(logger, remoteAddress, requestId, identity, path, basePath, corsHeaders);

    const finish = (response: Response): Response => {
      const { headers } = response;
      headers.set("X-Request-Id", requestId);
      if (corsHeaders !== undefined)
        for (const name in corsHeaders) headers.set(name, corsHeaders[name] as string);
      const status = response.status;
      const seconds = (performance.now() - started) / 1000;
      const label = status === 404 ? UNMATCHED : route;
      metrics.countRequest(label, method, status, seconds);
      const ms = Math.round(seconds * 10000) / 10;
      const pathJson = routed === undefined || routed.basePath === "" ? labelJson.get(route) : undefined;
      logger.access({ requestId, method, path: fullPath, pathJson, status, ms, identity });
      return response;
    };

    // Before anything counts: a rebound page must not spend a client's limits, nor the owner's.
    const placed = hostGuard === undefined ? "ok" : hostGuard(request, path, routed?.site);
    if (placed !== "ok") {
      metrics.count("foreign_host_refused_total", FOREIGN[placed]);
      return finish(foreign(placed));
    }
    if (found === "unknown") return finish(unknownSite());
    const preflight = siteCors.preflight(method, request, path);
    if (preflight !== undefined) return finish(preflight);
    // The facilitator's endpoints are as public as /api and spend more (the fee payer's SOL);
    // /readyz reads the store for its holder of the metrics token.
    if (isLimited(path)) {
      const verdict = overLimit(route, identity);
      if (verdict !== "ok") {
        metrics.count("ceiling_refusals_total", { ceiling: "protection-limit" });
        if (verdict === "first-over") facts.log.warn("protection rate limit hit", { identity, path });
        return finish(tooManyRequests());
      }
    }
    const held = inFlight.get(identity) ?? 0;
    if (held >= maxInFlightPerClient) {
      // Counted and in the access line (429); no WARN per refusal, which a flood would multiply.
      metrics.count("ceiling_refusals_total", { ceiling: "in-flight-per-client" });
      return finish(tooManyInFlight());
    }
    inFlight.set(identity, held + 1);
    const done = (response: Response): Response => {
      release(identity);
      return finish(response);
    };
    // GET (the busy status route) never touches `request.body`: reading it may build a stream.
    const body = carriesBody(method) ? request.body : null;
    const to = routed === undefined ? service.dispatch : routed.site.dispatch;
    const response = body === null ? to(request, facts) : dispatchWithBody(to, request, body, facts);
    return response instanceof Promise
      ? response.then(done, (error: unknown) => {
          release(identity);
          throw error;
        })
      : done(response);
  };
};
