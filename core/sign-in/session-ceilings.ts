/**
 * How many sessions a wallet may hold, how often it may sign in, and how many session records
 * strangers may leave in the store. Each sign-in opens a 30-day session; signing a message costs
 * nothing, so without a cap one wallet could hold a session per sign-in for a month (20 a minute:
 * ~860,000). At most MAX_SESSIONS_PER_WALLET live sessions: opening one more revokes the oldest
 * (a browser, a phone, a CLI and room to spare), so a wallet holds at most 10 live sessions
 * whatever it does. Sign-ins are limited to MAX_SIGN_INS_PER_WALLET per SIGN_IN_WINDOW_MS (30 an
 * hour: one every two minutes on average), so a script cannot churn a wallet's sessions (and the
 * store's writes) at the protection limit's pace; the 31st in the hour is refused
 * "too-many-sign-ins" (429).
 *
 * Fresh wallets are free, though: 10,000 addresses x 20 sign-ins a minute, each with a new
 * keypair, would store 200,000 session records a minute. So the sessions of wallets WITHOUT
 * credits, and every session that is no longer live (closed by the per-wallet cap, signed out,
 * or revoked by "sign out other sessions"), are "evictable": held in one global oldest-first
 * order, at most MAX_CREDITLESS_SESSIONS (default 50,000: ~22 MB in memory, ~37 MB on Redis).
 * Opening one past that deletes the oldest (it then reads "unknown": its holder signs in again).
 * A live session of a wallet that holds credits is never deleted: met at the head of the order,
 * it leaves the order and stays. Buying costs at least 0.01 USDC, so a stranger's fresh wallets
 * evict only each other and other creditless sessions, never a paying user's, and the records
 * held are at most 10 x (wallets that held credits when they signed in) + MAX_CREDITLESS_SESSIONS.
 *
 * Each sign-in also stores its used nonce until the challenge expires (so a proof is single-use),
 * and a fresh keypair's first sign-in is free to make: so the sign-ins of wallets WITHOUT credits
 * share one budget per UTC minute, CREDITLESS_SIGN_INS_PER_MINUTE (default 600, the ceiling
 * creditless-sign-ins: one budget for every site and every instance, on the ceiling counter,
 * core/use-cases/count-sign-in.ts), checked before the nonce is used. That bounds the used
 * nonces (600 a minute x 5 minutes: ~3,000, plus the sign-ins of paying wallets, 30 an hour
 * each) and the churn of the eviction orders; past it, a creditless sign-in is refused
 * "too-many-sign-ins" for the rest of the minute, while a wallet that holds credits still signs
 * in. Counted per site, a stranger would get the budget once on each hosted site.
 *
 * A session that stops being live keeps its record CLOSED_SESSION_MS (a day), not until its
 * 30-day expiry, so its holder reads "revoked" (and signs in again) rather than "unknown" for
 * that day; a wallet signing in 30 times an hour then keeps ~720 such records, not ~21,600.
 */
import * as Context from "effect/Context";

export const MAX_SESSIONS_PER_WALLET = 10;
export const MAX_SIGN_INS_PER_WALLET = 30;
export const SIGN_IN_WINDOW_MS = 3_600_000;
export const MAX_CREDITLESS_SESSIONS = 50_000;
export const CLOSED_SESSION_MS = 86_400_000;
export const CREDITLESS_SIGN_INS_PER_MINUTE = 600;

export interface SessionCeilingsValue {
  /** Evictable session records kept at most (MAX_CREDITLESS_SESSIONS by default). */
  readonly maxCreditlessSessions: number;
}

/** The ceilings in force, read by the stores when they are built (the defaults where nothing provides them). */
export const SessionCeilings = Context.Reference<SessionCeilingsValue>("core/SessionCeilings", {
  defaultValue: () => ({
    maxCreditlessSessions: MAX_CREDITLESS_SESSIONS,
  }),
});

/** When a session that stops being live now is forgotten: a day from now, or sooner if it ends sooner. */
export const retiredExpiry = (expiresAt: number, now: number): number =>
  Math.min(expiresAt, now + CLOSED_SESSION_MS);
