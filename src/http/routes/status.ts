/** GET /api/status: the caller's rateLimit state (never 402). */
import { Clock, Effect } from "effect";
import { Hono } from "hono";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import type { AppEnv } from "../app-env.ts";
import { errorResponse } from "../error-response.ts";
import { type AppRuntime, runOutcome, whenReady } from "../run-effect.ts";

const readQuota = (identity: string) =>
  Effect.flatMap(QuotaStore, (quota) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => quota.view(identity, now)),
  );

export const statusRoutes = (runtime: AppRuntime) =>
  // Not async: on the memory store the whole request completes without a promise.
  new Hono<AppEnv>().get("/", (c) =>
    whenReady(runOutcome(runtime, readQuota(c.env.identity)), (outcome) =>
      outcome.ok
        ? c.json({ success: true, ...outcome.value, rateLimit: outcome.value })
        : errorResponse(c, outcome.error),
    ),
  );
