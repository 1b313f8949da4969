/** GET /api/payment/info and POST /api/payment. */
import { Clock, Effect } from "effect";
import { Hono } from "hono";
import { PaymentSettings } from "../../../core/payment-settings.ts";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import { buyQueries } from "../../../core/use-cases/buy-queries.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { type AppEnv, edgeFactsAsVariables } from "../app-env.ts";
import { errorResponse } from "../error-response.ts";
import { codeOf } from "../error-status.ts";
import type { InsightsRecorder } from "../insights-recorder.ts";
import { paymentInfo } from "../payment-info.ts";
import { renderRejection } from "../payment-rejections.ts";
import { readBody } from "../read-json.ts";
import { type AppRuntime, runOutcome } from "../run-effect.ts";
import { PaymentRequest } from "../schemas/requests.ts";

/** The caller's payment info: the terms and their own memo reference. */
const infoFor = (identity: string) =>
  Effect.gen(function* () {
    const terms = yield* PaymentSettings;
    const store = yield* PaymentStore;
    return paymentInfo(terms, yield* store.referenceFor(identity, yield* Clock.currentTimeMillis));
  });

/** Buys queries; the terms come along so a rejection can be explained with them. */
const buyFor = (identity: string, request: PaymentRequest) =>
  Effect.flatMap(PaymentSettings, (terms) =>
    Effect.map(Effect.result(buyQueries(identity, request)), (bought) => ({ terms, bought })),
  );

export const paymentRoutes = (
  runtime: AppRuntime,
  metrics: Metrics,
  paidDailyCap: number,
  recorder: InsightsRecorder,
) =>
  new Hono<AppEnv>()
    .use(edgeFactsAsVariables)
    .get("/info", async (c) => {
      const outcome = await runOutcome(runtime, infoFor(c.get("identity")));
      return outcome.ok ? c.json(outcome.value) : errorResponse(c, outcome.error, paidDailyCap);
    })
    .post("/", async (c) => {
      const request = await readBody(c, PaymentRequest, (problems) =>
        c.json(
          {
            success: false,
            error: "Invalid payment request",
            details: `${problems.join("; ")}. Send {"signature": "<transaction signature>", "amount": 0.01 to 1.00, "token": "USDC"}.`,
            code: "INVALID_REQUEST",
          },
          400,
        ),
      );
      if (!request.ok) return request.response;
      const identity = c.get("identity");
      const log = c.get("log");
      const raw = request.value;
      const outcome = await runOutcome(runtime, buyFor(identity, raw));
      if (!outcome.ok) return errorResponse(c, outcome.error, paidDailyCap);
      const { terms, bought } = outcome.value;
      if (bought._tag === "Failure") {
        const error = bought.failure;
        if (error._tag !== "PaymentRejected") return errorResponse(c, error, paidDailyCap);
        const reason = codeOf(error);
        metrics.count("payment_rejections_total", { reason });
        log.warn("payment rejected", {
          identity,
          signature: raw.signature.slice(0, 100),
          amount: raw.amount,
          reason,
          detail: error.reason,
        });
        const rendered = renderRejection(error, terms);
        return c.json(rendered.body, rendered.status, rendered.retryable ? { "Retry-After": "5" } : {});
      }
      const { claim, received, rateLimit } = bought.success;
      metrics.count("payment_grants_total");
      metrics.count("payment_queries_granted_total", {}, claim.queries);
      log.info("payment granted", {
        identity,
        signature: claim.signature,
        units: claim.units,
        received,
        queries: claim.queries,
      });
      const response = c.json({
        success: true,
        message: `Payment verified: ${claim.queries} queries granted`,
        signature: claim.signature,
        queriesGranted: claim.queries,
        rateLimit,
      });
      recorder.paid(log, { identity, units: received, queries: claim.queries, dialect: "signature" });
      return response;
    });
