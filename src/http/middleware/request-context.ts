/**
 * First middleware: request id (echoed in X-Request-Id), a per-request logger, the access log
 * line and request metrics.
 */
import type { MiddlewareHandler } from "hono";
import type { Logger } from "../../observability/log.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { AppEnv } from "../app-env.ts";

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

export interface RequestContextOptions {
  readonly logger: Logger;
  readonly metrics: Metrics;
  /**
   * Keep a well-formed incoming X-Request-Id: on when a proxy is configured (TRUST_PROXY), so
   * ids follow a request through it. Off by default: a client should
   * not choose the ids of our logs, and not reading request headers keeps Bun from
   * materialising them (about 3 us a request).
   */
  readonly acceptIncomingId?: boolean;
}

export const requestContext =
  ({ logger, metrics, acceptIncomingId = false }: RequestContextOptions): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now();
    const incoming = acceptIncomingId ? c.req.header("x-request-id") : undefined;
    const requestId = incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    // Set before the handler runs: headers prepared now are applied when the response is built.
    c.header("X-Request-Id", requestId);
    const bound = (level: keyof Logger) => (msg: string, fields?: Record<string, unknown>) =>
      logger[level](msg, { requestId, ...fields });
    c.set("log", { info: bound("info"), warn: bound("warn"), error: bound("error") });
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = c.req.routePath === "/*" || c.res.status === 404 ? "unmatched" : c.req.routePath;
    metrics.countRequest(route, c.req.method, c.res.status, seconds);
    const line = {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(seconds * 10000) / 10,
      identity: c.get("identity"),
    };
    if (c.res.status >= 500) logger.error("request", line);
    else if (c.res.status >= 400 && c.res.status !== 402 && c.res.status !== 404)
      logger.warn("request", line);
    else logger.info("request", line);
  };
