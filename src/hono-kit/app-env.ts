import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "../observability/log.ts";

/**
 * What the edge (src/http/edge/edge.ts) learned about a request before routing. It reaches the
 * router as Hono's `env`, the one argument Hono's fetch carries in; the router's first step
 * (src/app.ts) turns it into typed Variables, and routes read only those.
 */
export interface EdgeRequest {
  /** Address of the TCP peer, supplied by the Bun/Deno entry point (or a test). */
  readonly remoteAddress: string | undefined;
  readonly requestId: string;
  /** The request's path, decoded once by the edge (the router reads it from here). */
  readonly path: string;
  /**
   * What the edge took off the path to route it to its site: `/sites/<id>` on the service's
   * host names, "" on a site's own. Every URL a route writes for the client starts with it.
   */
  readonly basePath: string;
  /** Quota identity (client IP, IPv6 per /64). */
  readonly identity: string;
  /** CORS headers this request's response gets (none without an allowed Origin). */
  readonly corsHeaders: Readonly<Record<string, string>> | undefined;
  /** Logger whose lines carry the request id. */
  readonly log: Logger;
}

/** Per-request values, as routes read them: `c.get("identity")`. */
export interface RequestVariables {
  readonly requestId: string;
  readonly identity: string;
  readonly corsHeaders: Readonly<Record<string, string>> | undefined;
  readonly log: Logger;
}

/** Hono environment of the router. */
export interface AppEnv {
  Bindings: EdgeRequest;
  Variables: RequestVariables;
}

/** Hono middleware: the edge's facts become the typed Variables routes read. */
export const edgeFactsAsVariables: MiddlewareHandler<AppEnv> = (c, next) => {
  adoptEdgeFacts(c);
  return next();
};

/** Sets the Variables from the edge's facts (a route with one handler calls it itself). */
export const adoptEdgeFacts = (c: Context<AppEnv>) => {
  const facts = c.env;
  c.set("requestId", facts.requestId);
  c.set("identity", facts.identity);
  c.set("corsHeaders", facts.corsHeaders);
  c.set("log", facts.log);
};
