import type { Logger } from "../observability/log.ts";

/** What the edge (src/http/edge/edge.ts) hands every route as `c.env`. */
export interface Bindings {
  /** Address of the TCP peer, supplied by the Bun/Deno entry point (or a test). */
  readonly remoteAddress: string | undefined;
  readonly requestId: string;
  /** The request's path, decoded once by the edge (the router reads it from here). */
  readonly path: string;
  /** Quota identity (client IP, IPv6 per /64). */
  readonly identity: string;
  /** CORS headers this request's response gets (none without an allowed Origin). */
  readonly corsHeaders: Readonly<Record<string, string>> | undefined;
  /** Logger whose lines carry the request id. */
  readonly log: Logger;
  /** The response built with the edge's headers already in it (src/http/prepared-response.ts). */
  preparedResponse: Response | undefined;
}

/** Hono environment of the router. */
export interface AppEnv {
  Bindings: Bindings;
}
