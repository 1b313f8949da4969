/**
 * The WalletCredits port over the memory store's quota states: a wallet's credits are the quota
 * state of `walletAccount(address)` run under the wallet's limits (no free questions), in the same
 * map the payment claims credit, so a claim and a spend of one wallet see one state.
 */
import { Result } from "effect";
import { walletAccount, walletLimits } from "../../core/payments/wallet-credits.ts";
import * as Quota from "../../core/quota.ts";

export interface QuotaAccess {
  readonly load: (account: string, now: number) => Quota.QuotaState;
  readonly save: (account: string, state: Quota.QuotaState) => Quota.QuotaState;
  readonly peek: (account: string) => Quota.QuotaState | undefined;
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
  return {
    view: (wallet: string, now: number): Quota.QuotaView => {
      const state = access.peek(walletAccount(wallet));
      return state === undefined ? blank(now) : Quota.view(state, now, rules);
    },
    reserve: (wallet: string, now: number) => {
      const account = walletAccount(wallet);
      return Result.map(Quota.reserve(access.load(account, now), now, holdId(), rules), ([state, hold]) => ({
        hold,
        view: Quota.view(access.save(account, state), now, rules),
      }));
    },
    commit: (wallet: string, id: string, now: number) =>
      settle(wallet, now, (state) => Quota.commit(state, now, id)),
    release: (wallet: string, id: string, now: number) =>
      settle(wallet, now, (state) => Quota.release(state, now, id)),
  };
};
