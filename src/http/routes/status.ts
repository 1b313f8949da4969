/** GET /api/status: the caller's rateLimit state (never 402). */
import { Clock, Effect } from "effect";
import { Hono } from "hono";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import type { QuotaView } from "../../../core/quota.ts";
import type { AppEnv } from "../app-env.ts";
import { errorResponse } from "../error-response.ts";
import { type AppRuntime, runOutcome, whenReady } from "../run-effect.ts";

const readQuota = (identity: string) =>
  Effect.flatMap(QuotaStore, (quota) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => quota.view(identity, now)),
  );

/**
 * `{success: true, ...view, rateLimit: view}` as JSON. Written out by hand because this is the
 * busiest route and every value is a number or a boolean; a property test holds it equal to
 * JSON.stringify.
 */
export const statusBody = ({ remaining, resetAt, requiresPayment }: QuotaView): string => {
  const fields = `"remaining":${remaining},"resetAt":${resetAt},"requiresPayment":${requiresPayment}`;
  return `{"success":true,${fields},"rateLimit":{${fields}}}`;
};

const JSON_TYPE = { "Content-Type": "application/json" };

export const statusRoutes = (runtime: AppRuntime) =>
  // Not async: on the memory store the whole request completes without a promise.
  new Hono<AppEnv>().get("/", (c) =>
    whenReady(runOutcome(runtime, readQuota(c.env.identity)), (outcome) =>
      outcome.ok ? c.body(statusBody(outcome.value), 200, JSON_TYPE) : errorResponse(c, outcome.error),
    ),
  );
