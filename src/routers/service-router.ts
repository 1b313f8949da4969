/**
 * The service's own routes, built once whatever sites it hosts and answered only on its own host
 * names: the x402 facilitator API (its fee payer is the service's), liveness and readiness, and
 * /metrics. Readiness reads the service's store, chain and the root site's index.
 */
import { Hono } from "hono";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { opsRoutes } from "../http/routes/ops.ts";
import { x402FacilitatorRoutes } from "../http/routes/x402-facilitator.ts";
import { serviceMetadataOf } from "../payments/bazaar/service-metadata.ts";
import { withX402Extensions } from "../payments/v2/x402-extensions.ts";
import { internalError, notFound, routerOptions } from "./router-ends.ts";
import type { RouterDeps } from "./service-deps.ts";
import { paidEntries } from "./site-router.ts";

export const serviceRouter = (deps: RouterDeps) => {
  const { runtime, config, logger, metrics, receiptKey, limiters, now } = deps;
  const router = new Hono<AppEnv>(routerOptions);
  const token = config.x402?.facilitatorToken;
  const bare = deps.facilitator;
  if (bare !== undefined && token !== undefined) {
    // What the facilitator lists of this service: the root site's paid resources.
    const entries = paidEntries("", config);
    const service = serviceMetadataOf(config.x402Agents?.service);
    const publicOrigin = config.surface.publicOrigin;
    const facilitator = withX402Extensions(bare, { key: receiptKey, entries, service, publicOrigin });
    if (facilitator !== undefined)
      router.route(
        "/x402",
        x402FacilitatorRoutes({
          facilitator,
          token,
          runtime,
          metrics,
          terms: { payTo: config.x402?.facilitatorPayTo, minUnits: config.x402?.facilitatorMinUnits },
          discovery: { entries, service, publicOrigin },
        }),
      );
  }
  return router
    .route(
      "/",
      opsRoutes({
        runtime,
        metrics,
        metricsToken: config.surface.metricsToken,
        sponsor: bare?.sponsor,
        docsSync: deps.docsSync,
        ...(now === undefined ? {} : { now }),
        metricsLockout: limiters.metricsLockout,
        chainReadiness: limiters.chainReadiness,
      }),
    )
    .notFound(notFound)
    .onError(internalError(logger));
};
