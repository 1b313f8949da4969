/**
 * What failed settlements may cost the sponsor. A transaction that passed our simulation and then
 * failed on chain (the payer moved its USDC, or changed what its own Lighthouse assertion checks,
 * between the simulation and the send: on paywalled routes the handler runs in between) costs the
 * fee payer its whole fee, at most X402_MAX_SPONSOR_FEE_LAMPORTS (15,000), and the payer about
 * 5,000 lamports of its own transaction. Two brakes, shared by the instances through the store:
 *
 * - the paying wallet is refused sponsorship for a growing time after each such failure:
 *   10 minutes, then 1 hour, 6 hours, and 24 hours from the fourth on; its strikes are forgotten
 *   a week after the last one. One wallet can so cost at most 4 fees a day, then 1 a day.
 * - the lamports lost to such failures have a global budget per UTC hour
 *   (X402_SPONSOR_LOSS_LAMPORTS_PER_HOUR, default 1,000,000 = 0.001 SOL): once it is spent, x402
 *   v2 is withdrawn (not offered, nothing signed) until the hour turns. Fresh wallets are free,
 *   so the per-wallet brake alone bounds nothing; this one bounds the sum: at most the budget plus
 *   the fees of the settlements already past the check when it is crossed (each at most the
 *   fee cap), per hour. At the defaults: 1,000,000 lamports = 66 failures at the fee cap.
 *
 * Rule, arithmetic and reason here; the stores hold the state (memory, Redis in Lua).
 */
import type { PaymentRejectionReason } from "./payment-rejected.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** The refusals after the 1st, 2nd, 3rd and any later failure on chain. */
export const PAYER_COOL_DOWNS_MS: ReadonlyArray<number> = [
  10 * MINUTE_MS,
  HOUR_MS,
  6 * HOUR_MS,
  24 * HOUR_MS,
];
/** A wallet's strikes are forgotten this long after its last failure. */
export const STRIKE_MEMORY_MS = 7 * 24 * HOUR_MS;
export const DEFAULT_SPONSOR_LOSS_LAMPORTS_PER_HOUR = 1_000_000;
export const LOSS_WINDOW_MS = HOUR_MS;

/** A wallet's record: how many failures it caused, until when it is refused, and its last failure. */
export interface PayerStrikes {
  readonly strikes: number;
  readonly refusedUntil: number;
  readonly lastAt: number;
}

/** What a sponsorship request meets: the wallet's refusal (0: none) and the hour's losses so far. */
export interface SponsorStanding {
  readonly refusedUntil: number;
  readonly lostThisHour: number;
}

/** The refusal after a wallet's `strikes`-th failure. */
export const coolDownFor = (strikes: number): number =>
  PAYER_COOL_DOWNS_MS[Math.min(Math.max(strikes, 1), PAYER_COOL_DOWNS_MS.length) - 1] ?? 0;

/** A wallet's record after one more failure on chain at `now`. */
export const strikeAfterLoss = (previous: PayerStrikes | undefined, now: number): PayerStrikes => {
  const kept = previous !== undefined && now - previous.lastAt < STRIKE_MEMORY_MS ? previous.strikes : 0;
  const strikes = kept + 1;
  return { strikes, refusedUntil: now + coolDownFor(strikes), lastAt: now };
};

/** The UTC hour `now` falls in: the budget's window. */
export const lossWindowOf = (now: number): number => Math.floor(now / LOSS_WINDOW_MS);

/** Whether the hour's losses have spent the budget (a budget of 0: spent by the first loss, never before). */
export const budgetSpent = (lostThisHour: number, budgetLamports: number): boolean =>
  lostThisHour > 0 && lostThisHour >= budgetLamports;

/** Why a settlement would not be sponsored now, with how long until it could be; undefined: it may. */
export const sponsorRefusal = (
  standing: SponsorStanding,
  now: number,
  budgetLamports: number,
): { readonly reason: PaymentRejectionReason; readonly retryAfterMs: number } | undefined => {
  if (standing.refusedUntil > now)
    return { reason: "exact-payer-cooled-down", retryAfterMs: standing.refusedUntil - now };
  if (budgetSpent(standing.lostThisHour, budgetLamports))
    return {
      reason: "exact-sponsor-unavailable",
      retryAfterMs: (lossWindowOf(now) + 1) * LOSS_WINDOW_MS - now,
    };
  return undefined;
};
