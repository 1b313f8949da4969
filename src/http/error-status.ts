/**
 * The one map from error `_tag` to HTTP status. Adding an error to the union without a
 * status here fails the typecheck (`satisfies Record<...>`), so no error ships unmapped.
 */

import type { PaymentError } from "../../core/payment-errors.ts";
import type { ChainUnavailable } from "../../core/ports/chain-reader.ts";
import type { GenerationFailed } from "../../core/ports/generator.ts";
import type { EmbeddingFailed, RetrievalFailed } from "../../core/ports/retrieval.ts";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { PaidDailyCapReached, QuotaExhausted } from "../../core/quota.ts";
import type { EmptyMessage, MessageTooLong } from "../../core/use-cases/ask-question.ts";

export type AppError =
  | EmptyMessage
  | MessageTooLong
  | QuotaExhausted
  | PaidDailyCapReached
  | PaymentError
  | StoreUnavailable
  | ChainUnavailable
  | RetrievalFailed
  | EmbeddingFailed
  | GenerationFailed;

export const STATUS_OF = {
  EmptyMessage: 400,
  MessageTooLong: 400,
  QuotaExhausted: 402,
  PaidDailyCapReached: 429,
  InvalidAmount: 400,
  InvalidSignature: 400,
  InvalidToken: 400,
  TransactionNotFound: 400,
  TransactionNotConfirmed: 400,
  TransactionFailed: 400,
  TransactionTooOld: 400,
  WrongToken: 400,
  WrongRecipient: 400,
  InsufficientAmount: 400,
  SignatureAlreadyUsed: 400,
  MemoMismatch: 400,
  MemoRequired: 400,
  StoreUnavailable: 503,
  ChainUnavailable: 503,
  RetrievalFailed: 503,
  EmbeddingFailed: 503,
  GenerationFailed: 503,
} as const satisfies Record<AppError["_tag"], number>;

/** HTTP status of an expected error. */
export const statusOf = (error: AppError) => STATUS_OF[error._tag];

/** A stable machine-readable code: "TransactionNotFound" -> "TRANSACTION_NOT_FOUND". */
export const codeOf = (tag: string): string => tag.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
