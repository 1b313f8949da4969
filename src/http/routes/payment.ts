/** GET /api/payment/info and POST /api/payment. */
import { Clock, Effect } from "effect";
import { Hono } from "hono";
import { PaymentStore } from "../../../core/ports/payment-store.ts";
import { buyQueries } from "../../../core/use-cases/buy-queries.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { AppEnv } from "../app-env.ts";
import { errorResponse } from "../error-response.ts";
import { codeOf } from "../error-status.ts";
import { type PaymentDesk, paymentInfo } from "../payment-desk.ts";
import { fieldTypeProblem, readJsonObject } from "../read-json.ts";
import { type AppRuntime, runOutcome } from "../run-effect.ts";

export const paymentRoutes = (runtime: AppRuntime, desk: PaymentDesk, metrics: Metrics) =>
  new Hono<AppEnv>()
    .get("/info", async (c) => {
      const identity = c.env.identity;
      const outcome = await runOutcome(
        runtime,
        Effect.flatMap(PaymentStore, (store) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => store.referenceFor(identity, now)),
        ),
      );
      if (!outcome.ok) return errorResponse(c, outcome.error);
      return c.json(paymentInfo(desk, outcome.value));
    })
    .post("/", async (c) => {
      const parsed = await readJsonObject(c);
      if (!parsed.ok) return parsed.response;
      const { body } = parsed;
      const problems = [
        fieldTypeProblem(body, "signature", "string", true),
        fieldTypeProblem(body, "amount", "number", true),
        fieldTypeProblem(body, "token", "string", true),
      ].filter((problem) => problem !== undefined);
      if (problems.length > 0) {
        return c.json(
          {
            success: false,
            error: "Invalid payment request",
            details: `${problems.join("; ")}. Send {"signature": "<transaction signature>", "amount": 0.01 to 1.00, "token": "USDC"}.`,
            code: "INVALID_REQUEST",
          },
          400,
        );
      }
      const identity = c.env.identity;
      const log = c.env.log;
      const raw = {
        signature: body.signature as string,
        amount: body.amount as number,
        token: body.token as string,
      };
      const outcome = await runOutcome(runtime, buyQueries(identity, raw, desk));
      if (!outcome.ok) {
        const { error } = outcome;
        const reason = codeOf(error._tag);
        metrics.count("payment_rejections_total", { reason });
        log.warn("payment rejected", {
          identity,
          signature: raw.signature.slice(0, 100),
          amount: raw.amount,
          reason,
        });
        return errorResponse(c, error);
      }
      const { claim, received, rateLimit } = outcome.value;
      metrics.count("payment_grants_total");
      metrics.count("payment_queries_granted_total", {}, claim.queries);
      log.info("payment granted", {
        identity,
        signature: claim.signature,
        units: claim.units,
        received,
        queries: claim.queries,
      });
      return c.json({
        success: true,
        message: `Payment verified: ${claim.queries} queries granted`,
        signature: claim.signature,
        queriesGranted: claim.queries,
        rateLimit,
      });
    });
