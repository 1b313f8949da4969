/** Turns an expected error into its HTTP response (status from the exhaustive map). */
import type { Context } from "hono";
import { isRetryable } from "../../core/payment-errors.ts";
import type { AppEnv } from "./app-env.ts";
import { type AppError, codeOf, statusOf } from "./error-status.ts";

const UNAVAILABLE: Partial<Record<AppError["_tag"], string>> = {
  StoreUnavailable: "Service temporarily unavailable: state store unreachable",
  ChainUnavailable:
    "Blockchain RPC temporarily unavailable; your transfer is safe, retry the same signature shortly",
  RetrievalFailed: "Documentation search temporarily unavailable; no query was charged",
  EmbeddingFailed: "Documentation search temporarily unavailable; no query was charged",
  GenerationFailed: "Answer generation temporarily unavailable; no query was charged",
};

export const QUOTA_EXHAUSTED_TEXT = "Free queries used up for today: buy more queries to continue";

/** `paidDailyCap` is only named in the text of PaidDailyCapReached. */
export const errorResponse = (c: Context<AppEnv>, error: AppError, paidDailyCap?: number): Response => {
  const status = statusOf(error);
  const code = codeOf(error._tag);
  switch (error._tag) {
    case "EmptyMessage":
      return c.json({ success: false, error: "Message cannot be empty", code }, status);
    case "MessageTooLong":
      return c.json(
        { success: false, error: `Message is too long (at most ${error.limit} characters)`, code },
        status,
      );
    case "QuotaExhausted":
    case "PaidDailyCapReached": {
      const retryAfter = Math.max(1, Math.ceil((error.resetAt - Date.now()) / 1000));
      const text =
        error._tag === "QuotaExhausted"
          ? QUOTA_EXHAUSTED_TEXT
          : `Daily limit of ${paidDailyCap ?? "your"} paid queries reached; your remaining credits stay available after the reset`;
      return c.json({ success: false, error: text, code, resetAt: error.resetAt }, status, {
        "Retry-After": String(retryAfter),
      });
    }
    case "StoreUnavailable":
    case "ChainUnavailable":
    case "RetrievalFailed":
    case "EmbeddingFailed":
    case "GenerationFailed":
      c.env.log.warn("dependency unavailable", {
        code,
        reason: "reason" in error ? error.reason : error.message,
      });
      return c.json(
        { success: false, error: UNAVAILABLE[error._tag], code, requestId: c.env.requestId },
        status,
        {
          "Retry-After": "5",
        },
      );
    default:
      return c.json(
        { success: false, error: error.error, details: error.details, code, retryable: isRetryable(error) },
        status,
        isRetryable(error) ? { "Retry-After": "5" } : {},
      );
  }
};
