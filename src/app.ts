/**
 * The HTTP edge: `createApp` wires middleware and routes around a runtime built once per
 * process. No Bun- or Deno-specific API here, so both entry points serve the same app.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppConfig } from "../core/config.ts";
import type { AppEnv } from "./http/app-env.ts";
import { clientIdentity } from "./http/middleware/client-identity.ts";
import { cors } from "./http/middleware/cors.ts";
import { protectionLimit } from "./http/middleware/protection-limit.ts";
import { requestContext } from "./http/middleware/request-context.ts";
import type { PaymentDesk } from "./http/payment-desk.ts";
import { chatRoutes } from "./http/routes/chat.ts";
import { opsRoutes } from "./http/routes/ops.ts";
import { paymentRoutes } from "./http/routes/payment.ts";
import { statusRoutes } from "./http/routes/status.ts";
import { type AppRuntime, Defect } from "./http/run-effect.ts";
import type { Logger } from "./observability/log.ts";
import type { Metrics } from "./observability/metrics.ts";

export const MAX_BODY_BYTES = 16 * 1024;

export interface AppDeps {
  readonly runtime: AppRuntime;
  readonly config: Pick<AppConfig, "allowedOrigins" | "trustProxy" | "protectionRps">;
  readonly desk: PaymentDesk;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

export const createApp = ({ runtime, config, desk, logger, metrics }: AppDeps) => {
  const api = new Hono<AppEnv>()
    .use(protectionLimit({ perSecond: config.protectionRps, metrics }))
    // Only requests that carry a body pay for the size check.
    .on(
      ["POST", "PUT", "PATCH"],
      "*",
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: (c) =>
          c.json(
            {
              success: false,
              error: `Request body too large (at most ${MAX_BODY_BYTES} bytes)`,
              code: "BODY_TOO_LARGE",
            },
            413,
          ),
      }),
    )
    .route("/chat", chatRoutes({ runtime, desk, metrics }))
    .route("/status", statusRoutes(runtime))
    .route("/payment", paymentRoutes(runtime, desk, metrics));

  return new Hono<AppEnv>()
    .use(requestContext({ logger, metrics, acceptIncomingId: config.trustProxy.kind !== "none" }))
    .use(clientIdentity({ trustProxy: config.trustProxy }))
    .use(cors({ allowedOrigins: config.allowedOrigins }))
    .route("/api", api)
    .route("/", opsRoutes(runtime, metrics))
    .notFound((c) =>
      c.json({ success: false, error: `Not found: ${c.req.method} ${c.req.path}`, code: "NOT_FOUND" }, 404),
    )
    .onError((error, c) => {
      const cause = error instanceof Defect ? error.detail : (error.stack ?? String(error));
      (c.get("log") ?? logger).error("unhandled error", { requestId: c.get("requestId"), cause });
      return c.json(
        {
          success: false,
          error: "Internal server error",
          code: "INTERNAL_ERROR",
          requestId: c.get("requestId"),
        },
        500,
      );
    });
};

export type App = ReturnType<typeof createApp>;
