/** Sets `identity` from the socket address, believing forwarded headers only via trusted proxies. */
import type { MiddlewareHandler } from "hono";
import { clientAddress, identityOf } from "../../../core/client-identity.ts";
import type { TrustProxy } from "../../../core/trust-proxy.ts";
import type { AppEnv } from "../app-env.ts";

export interface ClientIdentityOptions {
  readonly trustProxy?: TrustProxy;
}

/** Identities of plain socket addresses, memoised: parsing an address is the costly part. */
const MEMO_LIMIT = 10_000;

export const clientIdentity = ({
  trustProxy = { kind: "none" },
}: ClientIdentityOptions = {}): MiddlewareHandler<AppEnv> => {
  let memo = new Map<string, string>();
  const socketIdentity = (socket: string | undefined) => {
    if (socket === undefined) return identityOf(undefined);
    let identity = memo.get(socket);
    if (identity === undefined) {
      identity = identityOf(
        clientAddress({ socket, forwardedFor: undefined, realIp: undefined }, { kind: "none" }),
      );
      if (memo.size >= MEMO_LIMIT) memo = new Map();
      memo.set(socket, identity);
    }
    return identity;
  };
  // Not async: nothing runs after the handler, so no extra async frame per request.
  return (c, next) => {
    if (trustProxy.kind === "none") {
      c.set("identity", socketIdentity(c.env?.remoteAddress));
      return next();
    }
    const address = clientAddress(
      {
        socket: c.env?.remoteAddress,
        forwardedFor: c.req.header("x-forwarded-for"),
        realIp: c.req.header("x-real-ip"),
      },
      trustProxy,
    );
    c.set("identity", identityOf(address));
    return next();
  };
};
