/** GET /api/status: the caller's rateLimit state (never 402). */
import { Clock, Effect } from "effect";
import { Hono } from "hono";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import type { AppEnv } from "../app-env.ts";
import { errorResponse } from "../error-response.ts";
import { type AppRuntime, runOutcome } from "../run-effect.ts";

export const statusRoutes = (runtime: AppRuntime) =>
  new Hono<AppEnv>().get("/", async (c) => {
    const identity = c.get("identity");
    const outcome = await runOutcome(
      runtime,
      Effect.flatMap(QuotaStore, (quota) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => quota.view(identity, now)),
      ),
    );
    if (!outcome.ok) return errorResponse(c, outcome.error);
    return c.json({ success: true, ...outcome.value, rateLimit: outcome.value });
  });
