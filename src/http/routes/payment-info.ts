/**
 * GET /api/payment/info: how to pay, with the caller's own memo reference. With the memory
 * store the reference is handed out at once (MemoryReferences) and the body comes from a
 * template, so the request completes without an effect run, a promise or a middleware (as GET
 * /api/status does); other stores go through PaymentStore.
 */
import { Clock, Effect, Option } from "effect";
import { Hono } from "hono";
import { MemoryReferences } from "../../../adapters/store-memory/index.ts";
import { PaymentSettings } from "../../../core/payment-settings.ts";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import { type AppEnv, adoptEdgeFacts } from "../app-env.ts";
import { errorResponse } from "../error-response.ts";
import { paymentInfoBody } from "../payment-info.ts";
import { preparedJson } from "../prepared-response.ts";
import { type AppRuntime, runOutcome, whenReady } from "../run-effect.ts";

/** The body builder for the configured terms, and the memory store's references if in use. */
const resolve = Effect.all({
  bodyFor: Effect.map(PaymentSettings, paymentInfoBody),
  fast: Effect.map(Effect.serviceOption(MemoryReferences), Option.getOrUndefined),
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
    const { bodyFor, fast } = resolved ?? {};
    if (bodyFor !== undefined && fast !== undefined)
      return preparedJson(c, bodyFor(fast.referenceFor(identity)));
    return whenReady(runOutcome(runtime, Effect.zip(resolve, referenceOf(identity))), (outcome) => {
      if (outcome.ok) return preparedJson(c, outcome.value[0].bodyFor(outcome.value[1]));
      adoptEdgeFacts(c);
      return errorResponse(c, outcome.error, paidDailyCap);
    });
  });
};
