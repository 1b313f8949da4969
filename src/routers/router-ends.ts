/** What every router answers when no route matches, and when a route throws (never the cause). */
import type { Context } from "hono";
import { getPath } from "hono/utils/url";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { Defect } from "../hono-kit/run-effect.ts";
import type { ServiceLogger } from "../observability/log.ts";

/** The edge has decoded the path already: a router takes it from the edge's facts. */
export const routerOptions = {
  getPath: (request: Request, options?: { env?: unknown }) =>
    (options?.env as AppEnv["Bindings"] | undefined)?.path ?? getPath(request),
};

export const notFound = (c: Context<AppEnv>) =>
  c.json({ success: false, error: `Not found: ${c.req.method} ${c.req.path}`, code: "NOT_FOUND" }, 404);

/** A 500 with the request id; the cause is logged, not echoed. */
export const internalError = (logger: ServiceLogger) => (error: Error, c: Context<AppEnv>) => {
  const cause = error instanceof Defect ? error.detail : (error.stack ?? String(error));
  (c.env?.log ?? logger).error("unhandled error", { cause });
  return c.json(
    { success: false, error: "Internal server error", code: "INTERNAL_ERROR", requestId: c.env?.requestId },
    500,
  );
};
