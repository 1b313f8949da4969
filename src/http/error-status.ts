/**
 * The one map from an expected error's `_tag` to its HTTP status and code. Adding an error to
 * the union without a status here fails the typecheck (`satisfies Record<...>`), so no error
 * ships unmapped. Payment rejections carry a reason and are rendered by payment-rejections.ts.
 */

import type { PaymentRejected } from "../../core/payments/payment-rejected.ts";
import type { PaidDailyCapReached } from "../../core/quota.ts";
import type { SignInRefused } from "../../core/sign-in/sign-in-rules.ts";
import type { EmptyMessage, MessageTooLong, QuotaExhausted } from "../../core/use-cases/prepare-answer.ts";
import type { TooManyDeclines } from "../../core/use-cases/spend-query.ts";
import type { Unavailable } from "../hono-kit/unavailable.ts";
import { REJECTIONS } from "../payments/payment-rejections.ts";
import { SIGN_IN_REFUSALS } from "../sign-in/sign-in-refusals.ts";

export type { Unavailable };

export type AppError =
  | EmptyMessage
  | MessageTooLong
  | QuotaExhausted
  | PaidDailyCapReached
  | TooManyDeclines
  | PaymentRejected
  | SignInRefused
  | Unavailable;

export const STATUS_OF = {
  EmptyMessage: 400,
  MessageTooLong: 400,
  QuotaExhausted: 402,
  PaidDailyCapReached: 429,
  TooManyDeclines: 429,
  PaymentRejected: 400,
  // Each reason has its own status (sign-in-refusals.ts); this is the usual one.
  SignInRefused: 401,
  StoreUnavailable: 503,
  ChainUnavailable: 503,
  RetrievalFailed: 503,
  EmbeddingFailed: 503,
  GenerationFailed: 503,
} as const satisfies Record<AppError["_tag"], number>;

/** HTTP status of an expected error. */
export const statusOf = (error: AppError) =>
  error._tag === "SignInRefused" ? SIGN_IN_REFUSALS[error.reason].status : STATUS_OF[error._tag];

/** "TransactionNotFound" -> "TRANSACTION_NOT_FOUND". */
const constantCase = (tag: string): string => tag.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();

/** A stable machine-readable code; a payment rejection's is its reason's. */
export const codeOf = (error: AppError): string =>
  error._tag === "PaymentRejected"
    ? REJECTIONS[error.reason].code
    : error._tag === "SignInRefused"
      ? SIGN_IN_REFUSALS[error.reason].code
      : constantCase(error._tag);
