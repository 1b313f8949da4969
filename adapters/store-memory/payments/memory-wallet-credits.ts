/**
 * The WalletCredits port over the memory store's quota states: a wallet's credits are the quota
 * state of `walletAccount(address)` run under the wallet's limits (no free questions), in the same
 * map the payment claims credit, so a claim and a spend of one wallet see one state. A spend
 * through a payer link (link-allowance.ts) reads and writes the link and the wallet's state in
 * one synchronous step, so nothing interleaves, as in the Redis script.
 */
import * as Result from "effect/Result";
import {
  type PayerLink,
  reserveThroughLink,
  settleThroughLink,
  viewThroughLink,
} from "../../../core/payments/link-allowance.ts";
import { walletAccount, walletLimits } from "../../../core/payments/wallet-credits.ts";
import * as Quota from "../../../core/quota.ts";

export interface QuotaAccess {
  readonly load: (account: string, now: number) => Quota.QuotaState;
  readonly save: (account: string, state: Quota.QuotaState) => Quota.QuotaState;
  readonly peek: (account: string) => Quota.QuotaState | undefined;
}

/** The live payer link a spend goes through (memory-sessions.ts holds it). */
export interface LinkAccess {
  readonly load: (now: number) => PayerLink | undefined;
  readonly save: (link: PayerLink | undefined) => void;
}

export const makeMemoryWalletCredits = (
  access: QuotaAccess,
  limits: Quota.QuotaLimits,
  holdId: () => string,
) => {
  const rules = walletLimits(limits);
  const blank = Quota.blankViews(rules);
  const settle = (wallet: string, now: number, change: (state: Quota.QuotaState) => Quota.QuotaState) => {
    const account = walletAccount(wallet);
    return Quota.view(access.save(account, change(access.load(account, now))), now, rules);
  };
  const throughLink = (
    wallet: string,
    id: string,
    now: number,
    link: LinkAccess,
    outcome: "commit" | "release",
  ) => {
    const account = walletAccount(wallet);
    const [after, state] = settleThroughLink(link.load(now), access.load(account, now), now, id, outcome);
    link.save(after);
    return viewThroughLink(after, access.save(account, state), now, rules);
  };
  return {
    /** Whether the wallet holds paid credits now (its sessions are then never evicted). */
    holdsCredits: (wallet: string): boolean => (access.peek(walletAccount(wallet))?.paidCredits ?? 0) > 0,
    view: (wallet: string, now: number, link?: LinkAccess): Quota.QuotaView => {
      const state = access.peek(walletAccount(wallet));
      if (link !== undefined)
        return viewThroughLink(link.load(now), state ?? Quota.emptyQuota(now), now, rules);
      return state === undefined ? blank(now) : Quota.view(state, now, rules);
    },
    reserve: (wallet: string, now: number, link?: LinkAccess) => {
      const account = walletAccount(wallet);
      const current = access.load(account, now);
      if (link === undefined)
        return Result.map(Quota.reserve(current, now, holdId(), rules), ([state, hold]) => ({
          hold,
          view: Quota.view(access.save(account, state), now, rules),
        }));
      return Result.map(
        reserveThroughLink(link.load(now), current, now, holdId(), rules),
        ([after, state, hold]) => {
          link.save(after);
          return { hold, view: viewThroughLink(after, access.save(account, state), now, rules) };
        },
      );
    },
    commit: (wallet: string, id: string, now: number, link?: LinkAccess) =>
      link === undefined
        ? settle(wallet, now, (state) => Quota.commit(state, now, id))
        : throughLink(wallet, id, now, link, "commit"),
    release: (wallet: string, id: string, now: number, link?: LinkAccess) =>
      link === undefined
        ? settle(wallet, now, (state) => Quota.release(state, now, id))
        : throughLink(wallet, id, now, link, "release"),
  };
};
