/**
 * GET /api/payment/info: how to pay, with the caller's own memo reference, read through the
 * store's QuickReads: with the memory store the reference is handed out at once and the body
 * comes from a template, so the request completes without an effect run, a promise or a
 * middleware (as GET /api/status does); with Redis it is one script behind a plain promise. A
 * store without them goes through PaymentStore.
 */
import { Clock, Effect, Option } from "effect";
import { Hono } from "hono";
import { PaymentSettings } from "../../../core/payments/payment-settings.ts";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import { QuickReads } from "../../../core/ports/quick-reads.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { type AppEnv, adoptEdgeFacts } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome, whenReady } from "../../hono-kit/run-effect.ts";
import { paymentInfoBody } from "../../payments/payment-info.ts";
import { errorResponse } from "../error-response.ts";
import { preparedJson } from "../prepared-response.ts";

/** The body builder for the configured terms, and the store's quick reads. */
const resolve = Effect.all({
  bodyFor: Effect.map(PaymentSettings, paymentInfoBody),
  quick: Effect.map(Effect.serviceOption(QuickReads), Option.getOrUndefined),
});

const referenceOf = (identity: string) =>
  Effect.flatMap(PaymentStore, (store) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => store.referenceFor(identity, now)),
  );

export const paymentInfoRoutes = (runtime: AppRuntime, paidDailyCap: number) => {
  // Resolved on the first request (the runtime is built by then), then kept.
  let resolved: Effect.Success<typeof resolve> | undefined;
  return new Hono<AppEnv>().get("/", (c) => {
    const identity = c.env.identity;
    if (resolved === undefined) {
      const found = runOutcome(runtime, resolve);
      if (!(found instanceof Promise) && found.ok) resolved = found.value;
    }
    const { bodyFor, quick } = resolved ?? {};
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
