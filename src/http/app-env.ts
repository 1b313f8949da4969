import type { Logger } from "../observability/log.ts";

/** Hono environment: what the runtime entry point passes, and what middleware sets. */
export interface AppEnv {
  Bindings: {
    /** Address of the TCP peer, supplied by the Bun/Deno entry point (or a test). */
    readonly remoteAddress?: string | undefined;
  };
  Variables: {
    requestId: string;
    /** Quota identity (client IP, IPv6 per /64). */
    identity: string;
    log: Logger;
  };
}
