/**
 * Used transaction signatures. A signature moves unused -> used once and is remembered for
 * `SIGNATURE_MEMORY_MS`. Replay after the memory lapses is impossible because verification
 * also refuses transactions older than `MAX_TRANSACTION_AGE_MS` (shorter than the memory):
 * a transaction that was claimed at time u has blockTime <= u, so by the time its record is
 * forgotten (u + memory) it is already too old to be accepted again.
 */
import { DAY_MS } from "../time.ts";

export const SIGNATURE_MEMORY_MS = 30 * DAY_MS;
/** One day shorter than the memory, as a margin for clock skew between us and the chain. */
export const MAX_TRANSACTION_AGE_MS = SIGNATURE_MEMORY_MS - DAY_MS;

export interface UsedSignature {
  readonly usedAt: number;
  readonly identity: string;
  readonly queries: number;
}

export type LedgerEntry = UsedSignature | undefined;

/** Whether a record of use still counts at `now` (records older than the memory are gone). */
export const isRemembered = (entry: LedgerEntry, now: number): entry is UsedSignature =>
  entry !== undefined && now - entry.usedAt < SIGNATURE_MEMORY_MS;

/** Whether a transaction with this block time (epoch seconds, as the chain reports) may be claimed at `now`. */
export const isFreshEnough = (blockTimeSeconds: number, now: number): boolean =>
  now - blockTimeSeconds * 1000 <= MAX_TRANSACTION_AGE_MS;

/** Marks a signature used; undefined when it is already used (the claim must fail). */
export const markUsed = (
  entry: LedgerEntry,
  now: number,
  identity: string,
  queries: number,
): UsedSignature | undefined => (isRemembered(entry, now) ? undefined : { usedAt: now, identity, queries });
