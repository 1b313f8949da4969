/** GET /api/payment/info: how to pay this site, with the caller's own memo reference. */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { Hono } from "hono";
import { PaymentSettings } from "../../../core/payments/payment-settings.ts";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import { type AppEnv, edgeFactsAsVariables } from "../../hono-kit/app-env.ts";
import { type AppRuntime, runOutcome, whenReady } from "../../hono-kit/run-effect.ts";
import { paymentInfo } from "../../payments/payment-info.ts";
import { errorResponse } from "../error-response.ts";

const infoFor = (identity: string, basePath: string) =>
  Effect.gen(function* () {
    const terms = yield* PaymentSettings;
    const store = yield* PaymentStore;
    const reference = yield* store.referenceFor(identity, yield* Clock.currentTimeMillis);
    return paymentInfo(terms, reference, basePath);
  });

export const paymentInfoRoutes = (runtime: AppRuntime, paidDailyCap: number) =>
  new Hono<AppEnv>()
    .use(edgeFactsAsVariables)
    .get("/", (c) =>
      whenReady(runOutcome(runtime, infoFor(c.get("identity"), c.env.basePath)), (outcome) =>
        outcome.ok ? c.json(outcome.value) : errorResponse(c, outcome.error, paidDailyCap),
      ),
    );
