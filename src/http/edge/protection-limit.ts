/**
 * Protection rate limit: at most `perSecond` requests per identity per endpoint in each
 * one-second window, counted in memory (never touches the store). Windows of past seconds are
 * dropped, so memory stays bounded by the identities active in one second.
 */

/** How a request fares: within the limit, the first request over it (worth a log line), or later ones. */
export type LimitVerdict = "ok" | "first-over" | "over";

export const protectionLimit = (perSecond: number, now: () => number = Date.now) => {
  let window = 0;
  // endpoint -> identity -> count: two lookups of strings the caller reuses, no key built per request.
  let counts = new Map<string, Map<string, number>>();
  return (endpoint: string, identity: string): LimitVerdict => {
    const second = Math.floor(now() / 1000);
    if (second !== window) {
      window = second;
      counts = new Map();
    }
    let perIdentity = counts.get(endpoint);
    if (perIdentity === undefined) {
      perIdentity = new Map();
      counts.set(endpoint, perIdentity);
    }
    const count = (perIdentity.get(identity) ?? 0) + 1;
    perIdentity.set(identity, count);
    if (count <= perSecond) return "ok";
    return count === perSecond + 1 ? "first-over" : "over";
  };
};
