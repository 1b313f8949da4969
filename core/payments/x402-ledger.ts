/**
 * The life of a payment request we issued (its `payment_id`), as pure transitions the memory
 * store runs and the Redis scripts mirror (adapters/store-redis/payments/x402-lua.ts):
 *
 *   open --claim--> claimed (a lease while the handler runs) --finish(ok)--> served
 *                                                          \--finish(5xx)--> unserved
 *   unserved, or claimed with a lapsed lease (the instance died mid-handler), can be claimed
 *   again, but only with the same transaction: the payment is never lost and never reused.
 *   A claim that grants queries (/api/chat with a transfer already on chain) goes straight to
 *   served: the credits are the goods. Only becoming served credits, and a record that can be
 *   claimed again never was, so a granting retry credits too (a chat settlement that timed out,
 *   its transfer presented later): exactly once, retry or not. /api/chat paid with x402 v2 claims without a grant
 *   before it moves the money (the lease is the reservation) and finishes served with the grant
 *   after: the finish that changes the record is the one that credits, so at most once.
 *
 * Opening a claim also marks the transaction signature used in the same ledger as
 * POST /api/payment (core/payments/signature-ledger.ts), so one transfer pays exactly once, whichever
 * way it is presented.
 */
import * as Result from "effect/Result";
import { DAY_MS } from "../time.ts";
import type { X402Network } from "./network.ts";
import { type PaymentRejected, rejected } from "./payment-rejected.ts";
import { type LedgerEntry, markUsed, type UsedSignature } from "./signature-ledger.ts";

/** An open request is kept this long past `expires_at`, for the header of a payment made in time. */
export const SETTLE_GRACE_MS = 10 * 60_000;
/**
 * A transfer may land this long after `expires_at` and still pay its request: a client that
 * starts paying before the deadline (the x402 client keeps a 30 s margin) signs a blockhash
 * that lives at most ~90 s, so its transfer lands within this grace or never. A claim that
 * `acceptsLate` (a transfer read on chain, core/payments/late-transfer.ts) passes both graces.
 */
export const LATE_TRANSFER_GRACE_MS = 90_000;
/** A claimed request is remembered this long: retries after a failed handler, refusals of replays. */
export const CLAIM_RETENTION_MS = DAY_MS;
/** How long a handler may run on one claim before a retry may claim again. */
export const LEASE_MS = 120_000;

/** What we announced in the 402, as the store keeps it. */
export interface IssuedPayment {
  readonly paymentId: string;
  readonly nonce: string;
  readonly resource: string;
  readonly method: string;
  /** Price in base units (6 decimals). */
  readonly units: bigint;
  readonly payTo: string;
  readonly mint: string;
  readonly network: X402Network;
  /** Epoch ms. */
  readonly expiresAt: number;
  readonly description: string;
}

export type PaymentState =
  | { readonly kind: "open" }
  | {
      readonly kind: "claimed";
      readonly signature: string;
      readonly lease: string;
      readonly leaseUntil: number;
    }
  | { readonly kind: "unserved"; readonly signature: string }
  | { readonly kind: "served"; readonly signature: string };

export interface PaymentRecord {
  readonly issued: IssuedPayment;
  readonly state: PaymentState;
}

/** The resource and method a payment is presented for. */
export interface Binding {
  readonly resource: string;
  readonly method: string;
}

export interface ClaimInput {
  readonly binding: Binding;
  readonly signature: string;
  /** When the transfer happened (epoch ms: the block time, or the claim time when not verified). */
  readonly paidAt: number;
  readonly lease: string;
  /** Straight to served (the claim itself delivers, e.g. granted queries). */
  readonly served: boolean;
  /** Recorded with the used signature. */
  readonly identity: string;
  readonly queries: number;
  /**
   * The sealed request the caller proved ours (core/payments/sealed-request.ts): claimed as an
   * open record when the store holds none, since a 402 stores nothing.
   */
  readonly sealed?: IssuedPayment;
  /**
   * The caller read the transfer on chain and serves or credits it however late it landed or is
   * presented (core/payments/late-transfer.ts): neither grace refuses it. Absent: both do.
   */
  readonly acceptsLate?: boolean;
}

export interface Claimed {
  readonly record: PaymentRecord;
  /** The signature's ledger entry to write; undefined on a retry (already written). */
  readonly used: UsedSignature | undefined;
  /** A second claim of the same transaction after a failed or lost response. */
  readonly retry: boolean;
  /**
   * Queries to credit in the same atomic step: the grant of a claim that serves, retry or not
   * (a retried record was never served, so it was never credited); 0 for a reservation.
   */
  readonly credit: number;
}

/**
 * When the store may forget the record. A claimed one is kept for the retention and at least
 * until its request is past its grace: its sealed id would otherwise read as open again.
 */
export const forgetAt = (record: PaymentRecord, now: number): number =>
  record.state.kind === "open"
    ? record.issued.expiresAt + SETTLE_GRACE_MS
    : Math.max(now + CLAIM_RETENTION_MS, record.issued.expiresAt + SETTLE_GRACE_MS);

/** The stored record, or the caller's proven sealed request as an open one when none is stored. */
export const recordOrSealed = (
  stored: PaymentRecord | undefined,
  sealed: IssuedPayment | undefined,
): PaymentRecord | undefined =>
  stored ?? (sealed === undefined ? undefined : { issued: sealed, state: { kind: "open" } });

/**
 * Whether a record to be forgotten at `forgetAt` is gone at `now`: from then on every store
 * answers as if it had never been issued, by the caller's clock (a store's own expiry, such as a
 * Redis TTL, only frees the memory).
 */
export const isForgotten = (forgetAt: number, now: number): boolean => now >= forgetAt;

/** Whether a claim of this transaction may run again (after a failed handler or a lapsed lease). */
const mayRetry = (state: PaymentState, now: number): boolean =>
  state.kind === "unserved" || (state.kind === "claimed" && state.leaseUntil <= now);

/**
 * Whether this transaction holds the claim under a live lease: its request is being served or
 * settled right now, so the same transaction presented again should wait, not give up.
 */
export const isHeldBy = (record: PaymentRecord | undefined, signature: string, now: number): boolean =>
  record?.state.kind === "claimed" && record.state.signature === signature && record.state.leaseUntil > now;

/**
 * Where this transaction stands with the request: "pending" while it is claimed by it (under a
 * live or lapsed lease) or released to it after a failure, so the same transaction may still
 * be credited; "served" once it was; "other" when the request is open or another transaction's.
 */
export const standingOf = (
  record: PaymentRecord | undefined,
  signature: string,
): "pending" | "served" | "other" => {
  if (record === undefined || record.state.kind === "open" || record.state.signature !== signature)
    return "other";
  return record.state.kind === "served" ? "served" : "pending";
};

/**
 * The checks that need no chain data, in the order `claimPayment` makes them: issued by us,
 * for this resource and method, not past its grace (unless the caller `acceptsLate`), not used
 * by another transaction. The transaction signature's own ledger is checked by the caller (the
 * store's `isClaimed`).
 */
export const checkUsable = (
  record: PaymentRecord | undefined,
  binding: Binding,
  signature: string,
  now: number,
  acceptsLate = false,
): Result.Result<{ readonly issued: IssuedPayment; readonly retry: boolean }, PaymentRejected> => {
  if (record === undefined) return Result.fail(rejected("payment-unknown"));
  const { issued, state } = record;
  if (issued.resource !== binding.resource || issued.method !== binding.method)
    return Result.fail(rejected("payment-other-resource"));
  if (state.kind === "open") {
    return !acceptsLate && now >= issued.expiresAt + SETTLE_GRACE_MS
      ? Result.fail(rejected("payment-expired"))
      : Result.succeed({ issued, retry: false });
  }
  return mayRetry(state, now) && state.signature === signature
    ? Result.succeed({ issued, retry: true })
    : Result.fail(rejected("payment-already-used"));
};

/** Consumes the payment with this transaction, or says why not. */
export const claimPayment = (
  record: PaymentRecord | undefined,
  ledger: LedgerEntry,
  claim: ClaimInput,
  now: number,
): Result.Result<Claimed, PaymentRejected> =>
  Result.flatMap(
    checkUsable(recordOrSealed(record, claim.sealed), claim.binding, claim.signature, now, claim.acceptsLate),
    ({ issued, retry }) => {
      const state: PaymentState = claim.served
        ? { kind: "served", signature: claim.signature }
        : { kind: "claimed", signature: claim.signature, lease: claim.lease, leaseUntil: now + LEASE_MS };
      const credit = claim.served ? claim.queries : 0;
      const claimed = (used: UsedSignature | undefined): Result.Result<Claimed, PaymentRejected> =>
        Result.succeed({ record: { issued, state }, used, retry, credit });
      if (retry) return claimed(undefined);
      if (!claim.acceptsLate && claim.paidAt > issued.expiresAt + LATE_TRANSFER_GRACE_MS)
        return Result.fail(rejected("payment-expired"));
      const used = markUsed(ledger, now, claim.identity, claim.queries);
      if (used === undefined) return Result.fail(rejected("signature-already-used"));
      return claimed(used);
    },
  );

/**
 * After the handler or settlement: served, or open to a retry with the same transaction. Other
 * leases, and a claim already finished, change nothing: the very same record comes back. A
 * grant given with a finish is credited only when the record changed, so a second finish with
 * the same lease, or one whose lapsed lease was claimed again, credits nothing.
 */
export const finishPayment = (record: PaymentRecord, lease: string, served: boolean): PaymentRecord => {
  const { state } = record;
  if (state.kind !== "claimed" || state.lease !== lease) return record;
  return {
    issued: record.issued,
    state: served
      ? { kind: "served", signature: state.signature }
      : { kind: "unserved", signature: state.signature },
  };
};
