/** The quota identity of a request: the socket address, believing forwarded headers only via trusted proxies. */
import { clientAddress, identityOf } from "../../../core/client-identity.ts";
import type { TrustProxy } from "../../../core/trust-proxy.ts";

/** Identities of plain socket addresses, memoised: parsing an address is the costly part. */
const MEMO_LIMIT = 10_000;

export type Identify = (request: Request, socket: string | undefined) => string;

export const clientIdentity = (trustProxy: TrustProxy): Identify => {
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
  // Without a trusted proxy the headers are never read: Bun materialises them on first access.
  if (trustProxy.kind === "none") return (_request, socket) => socketIdentity(socket);
  return (request, socket) =>
    identityOf(
      clientAddress(
        {
          socket,
          forwardedFor: request.headers.get("x-forwarded-for") ?? undefined,
          realIp: request.headers.get("x-real-ip") ?? undefined,
        },
        trustProxy,
      ),
    );
};
