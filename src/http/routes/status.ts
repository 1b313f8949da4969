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
export const statusBody = ({ remaining, resetAt, requiresPayment, free, paid }: QuotaView): string => {
  const fields = `"remaining":${remaining},"resetAt":${resetAt},"requiresPayment":${requiresPayment},"free":${free},"paid":${paid}`;
  return `{"success":true,${fields},"rateLimit":{${fields}}}`;
};

/**
 * `statusBody`, reusing the text of a view seen before: most callers share a handful of views
 * (every fresh client sees the same one until midnight), and Bun sends a string it has sent
 * before faster than a new one (measured: about 4% of a status request). Bounded, and emptied
 * when the day (resetAt) changes.
 */
export const statusBodies = (limit = 1024) => {
  let resetAt = Number.NaN;
  let bodies = new Map<number, string>();
  return (view: QuotaView): string => {
    if (view.resetAt !== resetAt || bodies.size >= limit) {
      resetAt = view.resetAt;
      bodies = new Map();
    }
    // One number per (remaining, free) pair, 0 <= free <= remaining (paid is the difference);
    // requiresPayment implies remaining 0, so -1 cannot clash with a pair.
    const key = view.requiresPayment ? -1 : (view.remaining * (view.remaining + 1)) / 2 + view.free;
    let body = bodies.get(key);
    if (body === undefined) {
      body = statusBody(view);
      bodies.set(key, body);
    }
    return body;
  };
};

export const statusRoutes = (runtime: AppRuntime) => {
  const bodyOf = statusBodies();
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
    if (viewNow !== undefined) return preparedJson(c, bodyOf(viewNow(c.env.identity, Date.now())));
    return whenReady(runOutcome(runtime, readQuota(c.env.identity)), (outcome) =>
      outcome.ok ? preparedJson(c, bodyOf(outcome.value)) : errorResponse(c, outcome.error),
    );
  });
};
