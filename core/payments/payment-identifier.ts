/**
 * x402's payment-identifier (specs/extensions/payment_identifier.md): a client names each
 * payment with an `id` and may resend the very same PaymentPayload to get the first response
 * back. The rule, per id (scoped by route):
 *
 *   no result kept           -> process the payment as usual ("new")
 *   kept, same digest        -> answer with the kept response, nothing verified or charged ("replay")
 *   kept, another digest     -> 409 ("conflict"): the id names another payment or another question
 *   required and no id       -> 400 (checked where the payload is read)
 *
 * The digest covers the exact payload and what it buys (method, path, request body or tool
 * arguments): the lookup runs before verification, so it trusts nothing but equality.
 *
 * Ceiling: a result is written only after a payment settled, so each kept result cost its
 * payer at least the smallest price (0.01 USDC); the store keeps at most MAX_PAID_RESULTS of
 * them (oldest dropped first) for PAID_RESULT_RETENTION_MS (a day, as long as the payment's own
 * record), each body at most MAX_KEPT_BODY_BYTES: 4,096 x 32 KiB = 128 MiB at the very worst,
 * bought for at least 40.96 USDC. A result dropped early costs nothing but convenience: the
 * resend then meets the payment's own record and is refused as already used, never charged twice.
 */
import { CLAIM_RETENTION_MS } from "./x402-ledger.ts";

/** The extension's name in `extensions` of a PaymentRequired and a PaymentPayload. */
export const PAYMENT_IDENTIFIER = "payment-identifier";
export const PAYMENT_ID_MIN_LENGTH = 16;
export const PAYMENT_ID_MAX_LENGTH = 128;
const PAYMENT_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** How long a result is kept: as long as the claimed payment's record. */
export const PAID_RESULT_RETENTION_MS = CLAIM_RETENTION_MS;
/** The most results a store keeps, the oldest dropped first. */
export const MAX_PAID_RESULTS = 4096;
/** A body above this is not kept; its result says so (the payment's receipt stays). */
export const MAX_KEPT_BODY_BYTES = 32 * 1024;

/** The spec's id format: 16 to 128 letters, digits, hyphens and underscores. */
export const isPaymentId = (id: string): boolean =>
  id.length >= PAYMENT_ID_MIN_LENGTH && id.length <= PAYMENT_ID_MAX_LENGTH && PAYMENT_ID_PATTERN.test(id);

/** A response as it was sent after a settled payment. */
export interface PaidResult {
  /** Hex SHA-256 of the payload and what it bought. */
  readonly digest: string;
  readonly status: number;
  /** The headers worth repeating (content type, PAYMENT-RESPONSE, receipts). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent; undefined when it was streamed or above MAX_KEPT_BODY_BYTES. */
  readonly body: string | undefined;
  /** Epoch ms. */
  readonly keptAt: number;
}

export type Resend =
  | { readonly kind: "new" }
  | { readonly kind: "replay"; readonly result: PaidResult }
  | { readonly kind: "conflict" };

/** What a payload with a kept id gets: its first result, a conflict, or a normal payment. */
export const resendOf = (kept: PaidResult | undefined, digest: string, now: number): Resend => {
  if (kept === undefined || now - kept.keptAt >= PAID_RESULT_RETENTION_MS) return { kind: "new" };
  return kept.digest === digest ? { kind: "replay", result: kept } : { kind: "conflict" };
};

/** A body as kept: itself when small enough, else nothing. */
export const keptBody = (body: string): string | undefined =>
  new TextEncoder().encode(body).length <= MAX_KEPT_BODY_BYTES ? body : undefined;
