/**
 * Sponsored x402 v2 settlements whose outcome is not known yet (x402's `settlement_pending`),
 * as pure transitions the memory store runs and the Redis store's Lua mirrors
 * (adapters/store-redis/payments/redis-pending-settlements.ts). An entry is written BEFORE the transaction is
 * sent (write-ahead), so an instance that dies, or a store that fails, right after sending
 * leaves it behind; it is closed once the outcome is known and acted on:
 *
 *   (none) --record--> pending --close(lease)--> (none)
 *                        |  record again (a retry of the same transaction, a new lease): replaced
 *                        '-- the reconciler (one instance at a time) reads the chain:
 *                              landed  -> the payer gets its due (credits, or the paywall's record
 *                                         open to the same payload), then close
 *                              failed, or its blockhash expired unseen -> closed, nothing kept
 *                              unknown -> left for the next round
 *
 * The due itself is given by the payment-request ledger's own exactly-once transitions
 * (x402-ledger.ts: a finish or a granting retry claim changes the record once), so two
 * reconcilers, a reconciler and a retry, or a reconciler run twice after a crash credit once.
 */
import { CLAIM_RETENTION_MS } from "./x402-ledger.ts";

/** Who is owed what if the transaction lands. */
export type PendingKind = "credit" | "paywall" | "facilitator";

export interface PendingSettlement {
  /** The transaction id (the fee payer's signature). */
  readonly signature: string;
  readonly kind: PendingKind;
  /** The payment request it pays ("" for the facilitator API, which has none of ours). */
  readonly paymentId: string;
  /** The claim's lease that sent it (a retry that sends it again records its own). */
  readonly lease: string;
  readonly resource: string;
  readonly method: string;
  /** The wallet credited when it lands (kind "credit"), and the queries it bought. */
  readonly identity: string;
  readonly queries: number;
  readonly payer: string;
  /** Its recent blockhash: once that is no longer valid and the transaction unseen, it never lands. */
  readonly blockhash: string;
  /** When it was recorded (epoch ms). */
  readonly since: number;
}

/**
 * The most entries held at once. Each is a transaction that passed simulation with its payer
 * held (one per payer at a time), closed within seconds in the usual case; a full table
 * refuses to sponsor (nothing is sent) rather than send what could not be followed.
 */
export const MAX_PENDING_SETTLEMENTS = 10_000;
/**
 * The reconciler leaves an entry alone this long: the request that sent it is still waiting for
 * its confirmation (30 s) and closes it itself in the usual case.
 */
export const RECONCILE_AFTER_MS = 60_000;
/** A facilitator entry that landed waits this long for its partner's second settle, then is closed. */
export const FACILITATOR_PENDING_RETENTION_MS = 24 * 60 * 60_000;
/** The reconciler's lease: a crashed holder blocks the next one at most this long. */
export const RECONCILER_LEASE_MS = 60_000;

/** The table after recording `entry`, or undefined when it is full (refuse to sponsor). */
export const recordPending = (
  table: ReadonlyMap<string, PendingSettlement>,
  entry: PendingSettlement,
  max: number = MAX_PENDING_SETTLEMENTS,
): Map<string, PendingSettlement> | undefined => {
  if (!table.has(entry.signature) && table.size >= max) return undefined;
  return new Map(table).set(entry.signature, entry);
};

/** Whether `close(signature, lease)` removes the entry: only the lease that recorded it closes it. */
export const closes = (entry: PendingSettlement | undefined, lease: string): boolean =>
  entry !== undefined && entry.lease === lease;

/** What the chain says of a transaction, read in this order: its blockhash's validity, then its status. */
export interface ChainFate {
  readonly blockhashValid: boolean;
  /** confirmed (or finalized), failed (landed with an error), seen (processed only), or none. */
  readonly status: "confirmed" | "failed" | "seen" | "none";
}

export type Fate = "landed" | "failed" | "expired" | "unknown";

/**
 * The verdict. A transaction unseen AFTER its blockhash was seen invalid can never land: the
 * validity is read first, so one that landed in between would show in the status.
 */
export const fateOf = ({ blockhashValid, status }: ChainFate): Fate => {
  switch (status) {
    case "confirmed":
      return "landed";
    case "failed":
      return "failed";
    case "seen":
      return "unknown";
    case "none":
      return blockhashValid ? "unknown" : "expired";
    default:
      return status satisfies never;
  }
};

/**
 * An entry still open this long after it was recorded is given up: by then its payment record
 * is forgotten (x402-ledger.ts keeps a claimed one CLAIM_RETENTION_MS), so no step of the
 * ledger can credit it any more, and reading its fate again would spend the RPC plan for
 * nothing. In the usual case an entry is closed within minutes; one whose record is gone
 * before that is given up as soon as it landed.
 */
export const GIVE_UP_AFTER_MS = CLAIM_RETENTION_MS;

/** Why an entry was given up: its record is gone, or it outlived GIVE_UP_AFTER_MS. */
export type GiveUpReason = "record-forgotten" | "too-old";

/** Whether an entry is past following (before any RPC call is spent on it). */
export const isTooOld = (entry: PendingSettlement, now: number): boolean =>
  now - entry.since >= GIVE_UP_AFTER_MS;

/** Whether the reconciler looks at an entry now: old enough that its sender is done with it. */
export const isDue = (entry: PendingSettlement, now: number, afterMs: number = RECONCILE_AFTER_MS): boolean =>
  now - entry.since >= afterMs;
