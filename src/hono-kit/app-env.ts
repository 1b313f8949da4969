import type { Logger } from "../observability/log.ts";

/**
 * What the edge (src/http/edge/edge.ts) learned about a request before routing. It reaches the
 * router as Hono's `env`, the one argument Hono's fetch carries in, and routes read it there
 * (`c.env`): no middleware copies it, so a route with one handler runs without a promise.
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

/** Hono environment of the routers: routes read the edge's facts as `c.env` (`c.env.identity`). */
export interface AppEnv {
  Bindings: EdgeRequest;
}
