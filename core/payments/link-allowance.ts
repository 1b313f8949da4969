/**
 * What a client without a session may spend of the wallet it paid with: no more than was bought
 * from its identity (the spec's rule: what an address buys, that address may use).
 *
 * Rule. A payer link (identity -> wallet, made by a grant the client's memo binds to it) carries
 * an `allowance`: the questions bought through that identity and not yet spent through it. A
 * request of that identity without a session spends the wallet's credits through the link:
 *
 *   usable through the link = min(allowance - the link's open holds, the wallet's own usable)
 *   allowance               = min(allowance, the wallet's paid credits), on every write
 *
 * A hold through the link is one hold on the wallet's quota state and one on the link, with the
 * same id and the same expiry, taken in one atomic step: a commit spends one credit of the
 * wallet and one of the allowance, a release (or a lapse) gives both back. The session holder
 * (or a client signed in with the wallet) spends the wallet without the link: the wallet's
 * daily cap and balance bound both, and when the owner spends what a link counted, the
 * allowance is cut to what the wallet still holds (it never exceeds the wallet's balance).
 *
 * Why. Everyone behind one address (a NAT, a café's Wi-Fi, a carrier NAT, a Tor exit, a proxy
 * without TRUST_PROXY) is one identity: spending the whole wallet through a link let them spend
 * what the owner bought on other networks and devices. Each identity's link has its own
 * allowance; a payment with another wallet replaces the link (and its allowance); the
 * allowance ends with the link (30 days after its last purchase, or when the owner signs out
 * everywhere).
 */
import * as Result from "effect/Result";
import * as Quota from "../quota.ts";

/** A hold taken through a link: the twin of the wallet's hold with the same id. */
export interface LinkHold {
  readonly id: string;
  readonly expiresAt: number;
}

export interface PayerLink {
  readonly wallet: string;
  /** The wallet's session generation when linked: a later "sign out everywhere" voids the link. */
  readonly generation: number;
  readonly expiresAt: number;
  /** Questions bought through this identity and not yet spent through it. */
  readonly allowance: number;
  readonly holds: ReadonlyArray<LinkHold>;
}

/** The link as it stands at `now`, or undefined when it is expired or voided by a sign-out. */
export const liveLink = (
  link: PayerLink | undefined,
  generation: number,
  now: number,
): PayerLink | undefined =>
  link === undefined || link.expiresAt <= now || link.generation !== generation
    ? undefined
    : link.holds.every((hold) => hold.expiresAt > now)
      ? link
      : { ...link, holds: link.holds.filter((hold) => hold.expiresAt > now) };

/**
 * A grant of `queries` to `wallet` bought through this identity: the same live link grows its
 * allowance and lasts until `expiresAt`; any other (none, expired, voided, another wallet) is
 * replaced by a fresh one.
 */
export const addToLink = (
  live: PayerLink | undefined,
  wallet: string,
  generation: number,
  queries: number,
  expiresAt: number,
): PayerLink =>
  live !== undefined && live.wallet === wallet
    ? { ...live, expiresAt: Math.max(live.expiresAt, expiresAt), allowance: live.allowance + queries }
    : { wallet, generation, expiresAt, allowance: queries, holds: [] };

/** The allowance cut to the wallet's paid credits (held ones included: a release gives them back). */
const clamp = (link: PayerLink, wallet: Quota.QuotaState): PayerLink =>
  link.allowance <= wallet.paidCredits ? link : { ...link, allowance: wallet.paidCredits };

/** What the link leaves usable of the wallet's paid questions; the view is the wallet's, capped. */
export const viewThroughLink = (
  live: PayerLink | undefined,
  wallet: Quota.QuotaState,
  now: number,
  limits: Quota.QuotaLimits,
): Quota.QuotaView => {
  const walletView = Quota.view(wallet, now, limits);
  const owned =
    live === undefined
      ? 0
      : Math.max(0, clamp(live, Quota.normalize(wallet, now)).allowance - live.holds.length);
  const paid = Math.min(owned, walletView.paid);
  return {
    ...walletView,
    remaining: walletView.free + paid,
    paid,
    requiresPayment: walletView.free === 0 && owned === 0,
  };
};

/** Holds one question of the wallet through the link: refused when the link's allowance is spent. */
export const reserveThroughLink = (
  live: PayerLink | undefined,
  wallet: Quota.QuotaState,
  now: number,
  holdId: string,
  limits: Quota.QuotaLimits,
): Result.Result<
  readonly [PayerLink, Quota.QuotaState, Quota.Hold],
  Quota.QuotaExhausted | Quota.PaidDailyCapReached
> => {
  const current = Quota.normalize(wallet, now);
  const link = live === undefined ? undefined : clamp(live, current);
  if (link === undefined || link.allowance - link.holds.length <= 0)
    return Result.fail(new Quota.QuotaExhausted({ resetAt: Quota.view(current, now, limits).resetAt }));
  return Result.map(Quota.reserve(current, now, holdId, limits), ([state, hold]) => {
    const twin: LinkHold = { id: hold.id, expiresAt: hold.expiresAt };
    return [{ ...link, holds: [...link.holds, twin] }, state, hold] as const;
  });
};

/**
 * Counts or gives back a hold taken through the link. A commit spends one credit of the
 * allowance only when the wallet's hold was still open (it spent one credit of the wallet);
 * unknown holds change nothing, so a repeat never charges twice.
 */
export const settleThroughLink = (
  live: PayerLink | undefined,
  wallet: Quota.QuotaState,
  now: number,
  holdId: string,
  outcome: "commit" | "release",
): readonly [PayerLink | undefined, Quota.QuotaState] => {
  const current = Quota.normalize(wallet, now);
  const spent = outcome === "commit" && current.holds.some((hold) => hold.id === holdId);
  const state =
    outcome === "commit" ? Quota.commit(current, now, holdId) : Quota.release(current, now, holdId);
  if (live === undefined) return [undefined, state];
  const held = live.holds.some((hold) => hold.id === holdId);
  const link: PayerLink = held
    ? {
        ...live,
        holds: live.holds.filter((hold) => hold.id !== holdId),
        allowance: spent ? Math.max(0, live.allowance - 1) : live.allowance,
      }
    : live;
  return [clamp(link, state), state];
};
