/**
 * Protection rate limit: at most `perSecond` requests per identity per endpoint in each
 * one-second window, answered from memory (never touches the store) with 429 + Retry-After.
 * Windows of past seconds are dropped, so memory stays bounded by the active identities.
 */
import type { MiddlewareHandler } from "hono";
import type { Metrics } from "../../observability/metrics.ts";
import type { AppEnv } from "../app-env.ts";

export interface ProtectionLimitOptions {
  readonly perSecond?: number;
  readonly metrics?: Metrics;
  readonly now?: () => number;
}

export const protectionLimit = ({
  perSecond = 100,
  metrics,
  now = Date.now,
}: ProtectionLimitOptions = {}): MiddlewareHandler<AppEnv> => {
  let window = 0;
  let counts = new Map<string, number>();
  // Not async: nothing runs after the handler, so no extra async frame per request.
  return (c, next) => {
    const second = Math.floor(now() / 1000);
    if (second !== window) {
      window = second;
      counts = new Map();
    }
    const key = `${c.get("identity")} ${c.req.method} ${c.req.path}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count > perSecond) {
      metrics?.count("protection_rate_limited_total");
      if (count === perSecond + 1)
        c.get("log").warn("protection rate limit hit", { identity: c.get("identity"), path: c.req.path });
      return Promise.resolve(
        c.json({ success: false, error: "Too many requests, slow down", code: "RATE_LIMITED" }, 429, {
          "Retry-After": "1",
        }),
      );
    }
    return next();
  };
};
