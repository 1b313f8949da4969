/** Sets `identity` from the socket address, believing forwarded headers only via trusted proxies. */
import type { MiddlewareHandler } from "hono";
import { clientAddress, identityOf } from "../../../core/client-identity.ts";
import type { TrustProxy } from "../../../core/trust-proxy.ts";
import type { AppEnv } from "../app-env.ts";

export interface ClientIdentityOptions {
  readonly trustProxy?: TrustProxy;
}

export const clientIdentity =
  ({ trustProxy = { kind: "none" } }: ClientIdentityOptions = {}): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const address = clientAddress(
      {
        socket: c.env?.remoteAddress,
        forwardedFor: c.req.header("x-forwarded-for"),
        realIp: c.req.header("x-real-ip"),
      },
      trustProxy,
    );
    c.set("identity", identityOf(address));
    await next();
  };
