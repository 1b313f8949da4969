/**
 * Protection rate limit: at most `perSecond` requests per key (identity and endpoint) in each
 * one-second window, counted in memory (never touches the store). Windows of past seconds are
 * dropped, so memory stays bounded by the keys active in one second.
 */

/** How a request fares: within the limit, the first request over it (worth a log line), or later ones. */
export type LimitVerdict = "ok" | "first-over" | "over";

export const protectionLimit = (perSecond: number, now: () => number = Date.now) => {
  let window = 0;
  let counts = new Map<string, number>();
  return (key: string): LimitVerdict => {
    const second = Math.floor(now() / 1000);
    if (second !== window) {
      window = second;
      counts = new Map();
    }
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count <= perSecond) return "ok";
    return count === perSecond + 1 ? "first-over" : "over";
  };
};
