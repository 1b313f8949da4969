/** POST /api/payment (GET /api/payment/info is payment-info-routes.ts). */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { Hono } from "hono";
import { PaymentSettings } from "../../../core/payments/payment-settings.ts";
import { buyQueries, type QueriesBought } from "../../../core/use-cases/buy-queries.ts";
import { spenderView } from "../../../core/use-cases/spend-query.ts";
import type { AppEnv } from "../../hono-kit/app-env.ts";
import type { InsightsRecorder } from "../../hono-kit/insights-recorder.ts";
import { readBody } from "../../hono-kit/read-json.ts";
import { type AppRuntime, runOutcome } from "../../hono-kit/run-effect.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { grantOnResend, isClaimKey, keepGrant } from "../../payments/claim-once.ts";
import { renderRejection, retryAfterOf } from "../../payments/payment-rejections.ts";
import { linkPayer } from "../../sign-in/payer-link.ts";
import { openSession } from "../../sign-in/wallet-sign-in.ts";
import { errorResponse } from "../error-response.ts";
import { codeOf } from "../error-status.ts";
import { PaymentRequest } from "../schemas/requests.ts";

/**
 * Buys queries; the terms come along so a rejection can be explained with them. After a grant
 * to a wallet the client is linked to it, and, when the transfer carries this client's memo (so
 * it was made for this client, not merely seen on chain), a session for the wallet is opened.
 */
const buyFor = (identity: string, request: PaymentRequest) =>
  Effect.flatMap(PaymentSettings, (terms) =>
    Effect.map(
      Effect.result(Effect.flatMap(buyQueries(identity, request), afterGrant(identity))),
      (bought) => ({
        terms,
        bought,
      }),
    ),
  );

const afterGrant = (identity: string) => (bought: QueriesBought) =>
  Effect.gen(function* () {
    const { payer } = bought;
    if (payer === undefined) return { ...bought, session: undefined };
    // The grant is made: what follows may fail without failing the payment (the wallet holds the credits).
    yield* linkPayer(identity, payer, bought.claim.queries);
    const session = bought.madeForClient
      ? yield* Effect.orElseSucceed(openSession(payer), () => undefined)
      : undefined;
    const rateLimit = yield* Effect.orElseSucceed(
      Effect.flatMap(Clock.currentTimeMillis, (now) => spenderView({ identity, wallet: payer }, now)),
      () => bought.rateLimit,
    );
    return { ...bought, rateLimit, session };
  });

export const paymentRoutes = (
  runtime: AppRuntime,
  metrics: Metrics,
  paidDailyCap: number,
  recorder: InsightsRecorder,
) =>
  // The middleware on this route only: GET /info (payment-info-routes.ts) runs without one.
  new Hono<AppEnv>().post("/", async (c) => {
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
    const identity = c.env.identity;
    const log = c.env.log;
    const raw = request.value;
    const offeredKey = c.req.header("Idempotency-Key");
    const claimKey = isClaimKey(offeredKey) ? offeredKey : undefined;
    const outcome = await runOutcome(runtime, buyFor(identity, raw));
    if (!outcome.ok) return errorResponse(c, outcome.error, paidDailyCap);
    const { terms, bought } = outcome.value;
    if (bought._tag === "Failure") {
      const error = bought.failure;
      if (error._tag !== "PaymentRejected") return errorResponse(c, error, paidDailyCap);
      // A claim resent with its Idempotency-Key (its response was lost) gets its grant back.
      if (error.reason === "signature-already-used" && claimKey !== undefined) {
        const resent = await runOutcome(runtime, grantOnResend(raw.signature, claimKey));
        if (resent.ok && resent.value !== undefined) {
          log.info("payment resend answered", { identity, signature: raw.signature.slice(0, 100) });
          return c.json(resent.value);
        }
      }
      const reason = codeOf(error);
      // The chain lookup budget refused before any RPC call (core/payments/chain-lookup-budget.ts).
      if (error.reason === "chain-lookups-limited") metrics.count("payment_unknown_signature_limited_total");
      metrics.count("payment_rejections_total", { reason });
      log.warn("payment rejected", {
        identity,
        signature: raw.signature.slice(0, 100),
        amount: raw.amount,
        reason,
        detail: error.reason,
      });
      const rendered = renderRejection(error, terms);
      return c.json(
        rendered.body,
        rendered.status,
        rendered.retryable ? { "Retry-After": retryAfterOf(error) } : {},
      );
    }
    const { claim, received, rateLimit, session } = bought.success;
    metrics.count("payment_grants_total");
    metrics.count("payment_queries_granted_total", {}, claim.queries);
    log.info("payment granted", {
      identity,
      signature: claim.signature,
      units: claim.units,
      received,
      queries: claim.queries,
      toWallet: bought.success.payer !== undefined,
    });
    const granted = {
      success: true,
      message: `Payment verified: ${claim.queries} queries granted`,
      signature: claim.signature,
      queriesGranted: claim.queries,
      rateLimit,
      ...(bought.success.payer === undefined ? {} : { wallet: bought.success.payer }),
    };
    if (claimKey !== undefined)
      await runOutcome(runtime, keepGrant(claim.signature, claimKey, { body: granted }));
    const response = c.json({
      ...granted,
      // The session's token goes to this caller only, in the body (never a URL, a log line or the store).
      ...(session === undefined ? {} : { session: { token: session.token, expiresAt: session.expiresAt } }),
    });
    recorder.paid(log, { identity, units: received, queries: claim.queries, dialect: "signature" });
    return response;
  });
