/** Turns an expected error into its HTTP response (status and code from the exhaustive map). */
import type { Context } from "hono";
import type { PaymentRejected } from "../../core/payments/payment-rejected.ts";
import type { QuotaExhausted } from "../../core/use-cases/prepare-answer.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { UNAVAILABLE, type Unavailable } from "../hono-kit/unavailable.ts";
import { paymentInfo } from "../payments/payment-info.ts";
import { renderSignInRefusal } from "../sign-in/sign-in-refusals.ts";
import { type AppError, codeOf, statusOf } from "./error-status.ts";

export const QUOTA_EXHAUSTED_TEXT = "Free queries used up for today: buy more queries to continue";

/** The chat's 402 fields: the rate limit and how to pay with POST <basePath>/api/payment. */
export const quotaExhaustedBody = (error: QuotaExhausted, basePath: string) => ({
  success: false as const,
  error: QUOTA_EXHAUSTED_TEXT,
  code: "PAYMENT_REQUIRED",
  // The store raises QuotaExhausted only when nothing at all is left.
  rateLimit: { remaining: 0, resetAt: error.resetAt, requiresPayment: true, free: 0, paid: 0 },
  payment: paymentInfo(error.terms, error.reference, basePath),
});

const secondsUntil = (at: number) => String(Math.max(1, Math.ceil((at - Date.now()) / 1000)));

/**
 * Every expected error but a payment rejection (rendered with the payment terms by the payment
 * route) and an exhausted quota (the chat's 402, chat-payment.ts). `paidDailyCap` is named in
 * the text of PaidDailyCapReached.
 */
export const errorResponse = (
  c: Context<AppEnv>,
  error: Exclude<AppError, PaymentRejected | QuotaExhausted>,
  paidDailyCap: number,
): Response => {
  const status = statusOf(error);
  const code = codeOf(error);
  switch (error._tag) {
    case "EmptyMessage":
      return c.json({ success: false, error: "Message cannot be empty", code }, status);
    case "MessageTooLong":
      return c.json(
        { success: false, error: `Message is too long (at most ${error.limit} characters)`, code },
        status,
      );
    case "TooManyDeclines":
      return c.json(
        {
          success: false,
          error:
            "Too many questions the docs do not cover today; try again after 00:00 UTC. Nothing was charged.",
          code,
          resetAt: error.resetAt,
        },
        status,
        { "Retry-After": secondsUntil(error.resetAt) },
      );
    case "PaidDailyCapReached":
      return c.json(
        {
          success: false,
          error: `Daily limit of ${paidDailyCap} paid queries reached; your remaining credits stay available after the reset`,
          code,
          resetAt: error.resetAt,
        },
        status,
        { "Retry-After": secondsUntil(error.resetAt) },
      );
    case "SignInRefused": {
      const { status: refusal, body } = renderSignInRefusal(error.reason);
      return c.json(body, refusal, refusal === 429 ? { "Retry-After": "60" } : {});
    }
    default:
      return unavailableResponse(c, error);
  }
};

/** A dependency we could not reach: 503 with Retry-After; the cause is logged, never sent. */
export const unavailableResponse = (c: Context<AppEnv>, error: Unavailable): Response => {
  if (error._tag === "RetrievalFailed" && error.retryAfterMs !== undefined)
    return coldLoadsLimited(c, error.retryAfterMs);
  const code = codeOf(error);
  c.env.log.warn("dependency unavailable", {
    code,
    reason: "reason" in error ? error.reason : error.message,
    // The chain's reason is a category; its message says what happened (secret-free).
    ...("reason" in error && error.message !== "" ? { detail: error.message } : {}),
  });
  return c.json(
    { success: false, error: UNAVAILABLE[error._tag], code, requestId: c.env.requestId },
    statusOf(error),
    { "Retry-After": "5" },
  );
};

/** The service's cold index loads are spent this minute: the site's index is not loaded, nothing charged. */
const coldLoadsLimited = (c: Context<AppEnv>, retryAfterMs: number): Response => {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return c.json(
    {
      success: false,
      error: `Too many documentation indexes are loading; retry in ${seconds} s. No query was charged`,
      code: "COLD_INDEX_LOADS_LIMITED",
      requestId: c.env.requestId,
    },
    503,
    { "Retry-After": String(seconds) },
  );
};
