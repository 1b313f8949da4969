/** GET /api/status: the caller's rateLimit state (never 402). */
import { Clock, Effect, Option } from "effect";
import { Hono } from "hono";
import { MemoryQuotaView } from "../../../adapters/store-memory/index.ts";
import { QuotaStore } from "../../../core/ports/quota-store.ts";
import type { QuotaView } from "../../../core/quota.ts";
import { type AppEnv, adoptEdgeFacts } from "../app-env.ts";
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

/**
 * The route. With the memory store its view is read at once (MemoryQuotaView), so the whole
 * request completes without an effect run or a promise; a status read is the busiest request
 * and the effect runtime was a tenth of its time. Other stores go through QuotaStore.
 */
export const statusRoutes = (runtime: AppRuntime, paidDailyCap: number) => {
  const bodyOf = statusBodies();
  // Resolved on the first request (the runtime is built by then), then kept.
  let fastView: MemoryQuotaView["Service"] | undefined | null = null;
  const readQuota = (identity: string) =>
    Effect.flatMap(QuotaStore, (quota) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => quota.view(identity, now)),
    );
  // Not async: on the memory store the whole request completes without a promise.
  return new Hono<AppEnv>().get("/", (c) => {
    const identity = c.env.identity;
    if (fastView === null) {
      const found = runOutcome(runtime, Effect.serviceOption(MemoryQuotaView));
      if (!(found instanceof Promise) && found.ok) fastView = Option.getOrUndefined(found.value);
    }
    if (fastView) return preparedJson(c, bodyOf(fastView.view(identity)));
    return whenReady(runOutcome(runtime, readQuota(identity)), (outcome) => {
      if (outcome.ok) return preparedJson(c, bodyOf(outcome.value));
      adoptEdgeFacts(c);
      return errorResponse(c, outcome.error, paidDailyCap);
    });
  });
};
