/** GET /api/status: the caller's rateLimit state (never 402). */
import { Clock, Effect } from "effect";
import { Hono } from "hono";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import type { QuotaView } from "../../../core/quota.ts";
import type { AppEnv } from "../app-env.ts";
import { errorResponse } from "../error-response.ts";
import { preparedJson } from "../prepared-response.ts";
import { type AppRuntime, runOutcome, whenReady } from "../run-effect.ts";

/**
 * `{success: true, ...view, rateLimit: view}` as JSON. Written out by hand because this is the
 * busiest route and every value is a number or a boolean; a property test holds it equal to
 * JSON.stringify.
 */
export const statusBody = ({ remaining, resetAt, requiresPayment }: QuotaView): string => {
  const fields = `"remaining":${remaining},"resetAt":${resetAt},"requiresPayment":${requiresPayment}`;
  return `{"success":true,${fields},"rateLimit":{${fields}}}`;
};

export const statusRoutes = (runtime: AppRuntime) => {
  // The store, kept once the first request has resolved it. A store that can answer at once
  // (`viewNow`, the memory store) then serves the route without the effect runtime: on a
  // status read that was a tenth of the service's time.
  let store: QuotaStore["Service"] | undefined;
  const readQuota = (identity: string) =>
    Effect.flatMap(QuotaStore, (quota) => {
      store = quota;
      return Effect.flatMap(Clock.currentTimeMillis, (now) => quota.view(identity, now));
    });
  // Not async: on the memory store the whole request completes without a promise.
  return new Hono<AppEnv>().get("/", (c) => {
    const viewNow = store?.viewNow;
    if (viewNow !== undefined) return preparedJson(c, statusBody(viewNow(c.env.identity, Date.now())));
    return whenReady(runOutcome(runtime, readQuota(c.env.identity)), (outcome) =>
      outcome.ok ? preparedJson(c, statusBody(outcome.value)) : errorResponse(c, outcome.error),
    );
  });
};
