/**
 * Unattributed payments: transfers to our wallet that we verified on chain but serve and credit
 * to nobody, so the owner can refund them by hand (the console lists them, the export carries
 * them). Two ways in:
 *   - "memo-not-ours": POST /api/payment with a transfer whose memo is not one of ours (an
 *     `x402:` memo naming no request we sealed, or no memo of ours where one is required);
 *   - "late-refused": a late transfer of a paywalled route that opted out of serving late
 *     transfers (core/payments/late-transfer.ts).
 *
 * Bounds, like the insights' events: an entry older than UNATTRIBUTED_RETENTION_MS (by its block
 * time) is gone, and past UNATTRIBUTED_MAX_ENTRIES the oldest go first. One entry per
 * transaction signature (presenting it again changes nothing). Arithmetic: each entry needs a
 * real transfer to our wallet and a chain lookup admitted by the budget (600 a minute at most),
 * and is about 300 bytes: 10,000 entries are about 3 MB on Redis, whatever a stranger does.
 * Why 90 days: longer than the 30 days a transaction can still be presented, so a refund to-do
 * outlives every way of paying it.
 */
import { DAY_MS } from "../time.ts";
import type { PaymentRejectionReason } from "./payment-rejected.ts";
import { X402_MEMO_PREFIX } from "./x402.ts";

export const UNATTRIBUTED_REASONS = ["memo-not-ours", "late-refused"] as const;
export type UnattributedReason = (typeof UNATTRIBUTED_REASONS)[number];

export const UNATTRIBUTED_RETENTION_MS = 90 * DAY_MS;
export const UNATTRIBUTED_MAX_ENTRIES = 10_000;

export interface UnattributedBounds {
  readonly retentionMs: number;
  readonly maxEntries: number;
}

export const DEFAULT_UNATTRIBUTED_BOUNDS: UnattributedBounds = {
  retentionMs: UNATTRIBUTED_RETENTION_MS,
  maxEntries: UNATTRIBUTED_MAX_ENTRIES,
};

export interface UnattributedPayment {
  /** The transaction signature (base58). */
  readonly signature: string;
  /** The transfer's authority: who to refund; "" when no single wallet made the transfers. */
  readonly payer: string;
  /** USDC base units our wallet received. */
  readonly units: bigint;
  /** The block time, epoch ms. */
  readonly at: number;
  readonly reason: UnattributedReason;
  /** The payment request it was made for ("late-refused"); "" otherwise. */
  readonly paymentId: string;
}

/** Whether an entry is still kept at `now`. */
export const isKept = (entry: { readonly at: number }, now: number, bounds: UnattributedBounds): boolean =>
  entry.at > now - bounds.retentionMs;

/** The order both stores keep: block time, then signature (Redis sorted-set ties go by member). */
export const compareEntries = (a: UnattributedPayment, b: UnattributedPayment): number =>
  a.at - b.at || (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0);

/**
 * The entries after recording `entry` at `now` (sorted by compareEntries in and out): unchanged
 * when its signature is listed, else inserted, then what the retention and the cap no longer
 * allow dropped, oldest first.
 */
export const recordEntry = (
  entries: ReadonlyArray<UnattributedPayment>,
  entry: UnattributedPayment,
  now: number,
  bounds: UnattributedBounds,
): ReadonlyArray<UnattributedPayment> => {
  if (entries.some((held) => held.signature === entry.signature)) return entries;
  const kept = [...entries, entry].sort(compareEntries).filter((held) => isKept(held, now, bounds));
  return kept.slice(Math.max(0, kept.length - bounds.maxEntries));
};

/**
 * Whether POST /api/payment refused a transfer that carries no memo of ours, so no way of paying
 * can ever serve it: no memo of ours where one is required, or `x402:` memos naming no request
 * we sealed. A sealed one is left alone: its authorization header still pays that request.
 */
export const carriesNoMemoOfOurs = (
  reason: PaymentRejectionReason,
  memos: ReadonlyArray<string>,
  isOurPaymentId: (paymentId: string) => boolean,
): boolean => {
  if (reason === "memo-required") return true;
  if (reason !== "memo-reserved") return false;
  return !memos.some(
    (memo) => memo.startsWith(X402_MEMO_PREFIX) && isOurPaymentId(memo.slice(X402_MEMO_PREFIX.length)),
  );
};
