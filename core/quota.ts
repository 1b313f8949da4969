/**
 * The quota of one identity as a pure state machine (rules: "Quota" in the README's design decisions):
 * free queries per UTC day, paid credits that never expire, at most `paidDailyCap` paid
 * queries spent per UTC day, and reserve -> commit | release of single queries.
 *
 * A reservation is a hold with a lease: if the process dies between reserve and commit the
 * hold simply expires, so a crash never burns a query.
 */
import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { nextUtcMidnight, utcDay } from "./time.ts";

export interface QuotaLimits {
  readonly freePerDay: number;
  readonly paidDailyCap: number;
  /** How long an uncommitted hold blocks a query before it lapses. */
  readonly holdTtlMs: number;
}

export type Bucket = "free" | "paid";

export interface Hold {
  readonly id: string;
  readonly bucket: Bucket;
  readonly day: number;
  readonly expiresAt: number;
}

export interface QuotaState {
  /** UTC day the day counters belong to. */
  readonly day: number;
  readonly freeUsed: number;
  readonly paidSpentToday: number;
  /** Paid queries owned, not counting open holds. Survives day boundaries. */
  readonly paidCredits: number;
  readonly holds: ReadonlyArray<Hold>;
}

/** What a client sees: the spec's rateLimit object, with the free/paid split of `remaining`. */
export interface QuotaView {
  readonly remaining: number;
  readonly resetAt: number;
  readonly requiresPayment: boolean;
  /** Free questions left today. */
  readonly free: number;
  /** Paid questions usable today (credits not held, within the daily cap): free + paid = remaining. */
  readonly paid: number;
}

export class QuotaExhausted extends Schema.TaggedError<QuotaExhausted>()("QuotaExhausted", {
  resetAt: Schema.Number,
}) {}

export class PaidDailyCapReached extends Schema.TaggedError<PaidDailyCapReached>()("PaidDailyCapReached", {
  resetAt: Schema.Number,
}) {}

export const emptyQuota = (now: number): QuotaState => ({
  day: utcDay(now),
  freeUsed: 0,
  paidSpentToday: 0,
  paidCredits: 0,
  holds: [],
});

/** Rolls the day counters forward and drops lapsed holds. Idempotent. */
export const normalize = (state: QuotaState, now: number): QuotaState => {
  const today = utcDay(now);
  // Most states have no open hold: skip the copy then (status reads are the hot path).
  const holds = state.holds.length === 0 ? state.holds : state.holds.filter((hold) => hold.expiresAt > now);
  if (today > state.day)
    return { day: today, freeUsed: 0, paidSpentToday: 0, paidCredits: state.paidCredits, holds };
  return holds.length === state.holds.length ? state : { ...state, holds };
};

const countHolds = (state: QuotaState, bucket: Bucket, day?: number): number => {
  let count = 0;
  for (const hold of state.holds)
    if (hold.bucket === bucket && (day === undefined || hold.day === day)) count++;
  return count;
};

interface Availability {
  readonly free: number;
  /** Paid credits not held by an open reservation. */
  readonly paidOwned: number;
  /** Paid queries still spendable today under the daily cap. */
  readonly paidToday: number;
}

const availability = (state: QuotaState, limits: QuotaLimits): Availability => {
  const free = Math.max(0, limits.freePerDay - state.freeUsed - countHolds(state, "free", state.day));
  const paidOwned = Math.max(0, state.paidCredits - countHolds(state, "paid"));
  const capLeft = Math.max(
    0,
    limits.paidDailyCap - state.paidSpentToday - countHolds(state, "paid", state.day),
  );
  return { free, paidOwned, paidToday: Math.min(paidOwned, capLeft) };
};

/** The rateLimit view at `now`. */
export const view = (state: QuotaState, now: number, limits: QuotaLimits): QuotaView => {
  const current = normalize(state, now);
  const { free, paidOwned, paidToday } = availability(current, limits);
  return {
    remaining: free + paidToday,
    resetAt: nextUtcMidnight(now),
    requiresPayment: free === 0 && paidOwned === 0,
    free,
    paid: paidToday,
  };
};

/**
 * The view of a client with nothing remembered, made once per UTC day: it is the same for every
 * such client until midnight, and they make most status reads (the widget asks on each page
 * load), so the busiest request need not rebuild it.
 */
export const blankViews = (limits: QuotaLimits): ((now: number) => QuotaView) => {
  let day = Number.NaN;
  let blank: QuotaView | undefined;
  return (now) => {
    if (blank === undefined || utcDay(now) !== day) {
      day = utcDay(now);
      blank = view(emptyQuota(now), now, limits);
    }
    return blank;
  };
};

/** Holds one query: free first, then paid (within the daily cap). */
export const reserve = (
  state: QuotaState,
  now: number,
  holdId: string,
  limits: QuotaLimits,
): Result.Result<readonly [QuotaState, Hold], QuotaExhausted | PaidDailyCapReached> => {
  const current = normalize(state, now);
  const { free, paidOwned, paidToday } = availability(current, limits);
  const bucket: Bucket | undefined = free > 0 ? "free" : paidToday > 0 ? "paid" : undefined;
  if (bucket === undefined) {
    const resetAt = nextUtcMidnight(now);
    return Result.fail(
      paidOwned > 0 ? new PaidDailyCapReached({ resetAt }) : new QuotaExhausted({ resetAt }),
    );
  }
  const hold: Hold = { id: holdId, bucket, day: current.day, expiresAt: now + limits.holdTtlMs };
  return Result.succeed([{ ...current, holds: [...current.holds, hold] }, hold] as const);
};

/**
 * Turns a hold into a spent query. An unknown (already lapsed or settled) hold changes
 * nothing, so a repeated commit can never charge twice.
 */
export const commit = (state: QuotaState, now: number, holdId: string): QuotaState => {
  const current = normalize(state, now);
  const hold = current.holds.find((candidate) => candidate.id === holdId);
  if (hold === undefined) return current;
  const holds = current.holds.filter((candidate) => candidate !== hold);
  const sameDay = hold.day === current.day;
  return hold.bucket === "free"
    ? { ...current, holds, freeUsed: current.freeUsed + (sameDay ? 1 : 0) }
    : {
        ...current,
        holds,
        paidCredits: current.paidCredits - 1,
        paidSpentToday: current.paidSpentToday + (sameDay ? 1 : 0),
      };
};

/** Gives a held query back. Unknown holds change nothing. */
export const release = (state: QuotaState, now: number, holdId: string): QuotaState => {
  const current = normalize(state, now);
  return { ...current, holds: current.holds.filter((hold) => hold.id !== holdId) };
};

/** Adds bought queries; they survive day boundaries. */
export const grant = (state: QuotaState, now: number, queries: number): QuotaState => {
  const current = normalize(state, now);
  return { ...current, paidCredits: current.paidCredits + queries };
};
