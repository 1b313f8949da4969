/**
 * GET /api/payment/info: how to pay, with the caller's own memo reference, read through the
 * store's QuickReads: with the memory store the reference is handed out at once and the body
 * comes from a template, so the request completes without an effect run, a promise or a
 * middleware (as GET /api/status does); with Redis it is one script behind a plain promise. A
 * store without them goes through PaymentStore.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import { Hono } from "hono";
import { PaymentSettings } from "../../../core/payments/payment-settings.ts";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import { QuickReads } from "../../../core/ports/quick-reads.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { type AppEnv, adoptEdgeFacts, type EdgeRequest } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome, whenReady } from "../../hono-kit/run-effect.ts";
import { paymentInfoBody } from "../../payments/payment-info.ts";
import { errorResponse } from "../error-response.ts";
import { preparedFor, preparedJson } from "../prepared-response.ts";

/** The body builder for the configured terms, and the store's quick reads. */
const resolve = Effect.all({
  bodyFor: Effect.map(PaymentSettings, paymentInfoBody),
  quick: Effect.map(Effect.serviceOption(QuickReads), Option.getOrUndefined),
});

const referenceOf = (identity: string) =>
  Effect.flatMap(PaymentStore, (store) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => store.referenceFor(identity, now)),
  );

/** What the route and its fast path share: the body builder and quick reads, once resolved. */
export const paymentInfoReads = () => ({
  // Resolved on the first request (the runtime is built by then), then kept.
  resolved: undefined as Effect.Success<typeof resolve> | undefined,
});

/**
 * GET /api/payment/info answered by the edge itself for the default site once the reads are
 * resolved and the store answers; anything else returns undefined and takes the route below
 * (as statusFastPath does for GET /api/status).
 */
export const paymentInfoFastPath =
  (shared: ReturnType<typeof paymentInfoReads>) =>
  (_request: Request, facts: EdgeRequest): Response | Promise<Response | undefined> | undefined => {
    const { bodyFor, quick } = shared.resolved ?? {};
    if (bodyFor === undefined || quick === undefined) return undefined;
    const reference = quick.referenceFor(facts.identity);
    if (!(reference instanceof Promise)) return preparedFor(facts, bodyFor(reference));
    return reference.then((read) =>
      read instanceof StoreUnavailable ? undefined : preparedFor(facts, bodyFor(read)),
    );
  };

export const paymentInfoRoutes = (runtime: AppRuntime, paidDailyCap: number, shared = paymentInfoReads()) => {
  return new Hono<AppEnv>().get("/", (c) => {
    const identity = c.env.identity;
    if (shared.resolved === undefined) {
      const found = runOutcome(runtime, resolve);
      if (!(found instanceof Promise) && found.ok) shared.resolved = found.value;
    }
    const { bodyFor, quick } = shared.resolved ?? {};
    if (bodyFor !== undefined && quick !== undefined) {
      const reference = quick.referenceFor(identity);
      if (!(reference instanceof Promise)) return preparedJson(c, bodyFor(reference));
      const answered: Promise<Response> = reference.then((read) => {
        if (!(read instanceof StoreUnavailable)) return preparedJson(c, bodyFor(read));
        adoptEdgeFacts(c);
        return errorResponse(c, read, paidDailyCap);
      });
      return answered;
    }
    return whenReady(runOutcome(runtime, Effect.zip(resolve, referenceOf(identity))), (outcome) => {
      if (outcome.ok) return preparedJson(c, outcome.value[0].bodyFor(outcome.value[1]));
      adoptEdgeFacts(c);
      return errorResponse(c, outcome.error, paidDailyCap);
    });
  });
};
