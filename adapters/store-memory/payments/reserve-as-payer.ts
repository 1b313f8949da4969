/**
 * WalletCredits.reserveAsPayer on the memory store: the identity's live payer link, the wallet's
 * hold through it, and the identity's own hold when the wallet refuses, in one synchronous step
 * (nothing interleaves, as in the Redis script of adapters/store-redis/payer-hold-lua.ts).
 */
import * as Result from "effect/Result";
import { fallbackRefusal } from "../../../core/payments/wallet-credits.ts";
import type { PayerHold } from "../../../core/ports/wallet-credits-store.ts";
import type { Hold, PaidDailyCapReached, QuotaExhausted } from "../../../core/quota.ts";

type Held = Result.Result<{ readonly hold: Hold }, QuotaExhausted | PaidDailyCapReached>;

export interface PayerHoldSteps {
  /** The wallet the identity's live link names, if any. */
  readonly linked: (identity: string, now: number) => string | undefined;
  /** A hold on the wallet through the identity's link. */
  readonly onWallet: (wallet: string, identity: string, now: number) => Held;
  /** A hold on the identity's own quota. */
  readonly onIdentity: (identity: string, now: number) => Held;
}

export const makeReserveAsPayer =
  ({ linked, onWallet, onIdentity }: PayerHoldSteps) =>
  (identity: string, now: number): Result.Result<PayerHold, QuotaExhausted | PaidDailyCapReached> => {
    const wallet = linked(identity, now);
    const walletHeld = wallet === undefined ? undefined : onWallet(wallet, identity, now);
    if (walletHeld !== undefined && Result.isSuccess(walletHeld))
      return Result.succeed({ hold: walletHeld.success.hold, wallet, onWallet: true });
    const own = onIdentity(identity, now);
    if (Result.isSuccess(own)) return Result.succeed({ hold: own.success.hold, wallet, onWallet: false });
    return Result.fail(
      walletHeld === undefined ? own.failure : fallbackRefusal(walletHeld.failure, own.failure),
    );
  };
