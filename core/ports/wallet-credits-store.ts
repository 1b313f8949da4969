import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { Hold, PaidDailyCapReached, QuotaExhausted, QuotaView } from "../quota.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/** A hold taken by reserveAsPayer: where it is held, and the wallet the identity's link named. */
export interface PayerHold {
  readonly hold: Hold;
  readonly wallet: string | undefined;
  /** The hold is on the wallet's credits through the link (else on the identity's quota). */
  readonly onWallet: boolean;
}

/**
 * The paid credits of a wallet (core/payments/wallet-credits.ts), each method one atomic
 * transition of core/quota.ts under the wallet's limits (no free questions). Grants reach a
 * wallet through the payment claims (PaymentStore.claim, PaymentRequests), credited to
 * `walletAccount(address)` in the same atomic step that consumes the payment.
 *
 * `through`, when given, is a client identity spending the wallet through its payer link, not a
 * session: each method then reads and writes the link's allowance and the wallet's state in one
 * atomic step (core/payments/link-allowance.ts); an identity with no live link to the wallet
 * may spend none of it.
 */
export class WalletCredits extends Context.Service<
  WalletCredits,
  {
    /** The wallet's paid view (free is always 0). */
    readonly view: (
      wallet: string,
      now: number,
      through?: string,
    ) => Effect.Effect<QuotaView, StoreUnavailable>;
    /**
     * What a client that sends no session may spend: its identity's view, plus what its live
     * payer link leaves it of the wallet it paid with (as spenderView through the link). The
     * link and both quotas are read in one step (one script call on Redis): GET /api/status.
     */
    readonly viewAsPayer: (identity: string, now: number) => Effect.Effect<QuotaView, StoreUnavailable>;
    /**
     * Whether the wallet holds paid credits now (a read): a sign-in of a wallet that holds none
     * takes one of the creditless sign-ins everyone shares (core/use-cases/count-sign-in.ts).
     */
    readonly holdsCredits: (wallet: string) => Effect.Effect<boolean, StoreUnavailable>;
    readonly reserve: (
      wallet: string,
      now: number,
      through?: string,
    ) => Effect.Effect<
      { readonly hold: Hold; readonly view: QuotaView },
      QuotaExhausted | PaidDailyCapReached | StoreUnavailable
    >;
    /**
     * Holds one query for a client that sends no session: the wallet its identity's live payer
     * link names, through the link, first; then (no live link, or the link or the wallet refuses)
     * its identity's own quota, as core/use-cases/spend-query.ts's reserveQuery falls back. The
     * link is read in the same atomic step as the hold (one script call on Redis), so a request
     * asks no separate question about it. `wallet` is the link's (undefined: no live link).
     */
    readonly reserveAsPayer: (
      identity: string,
      now: number,
    ) => Effect.Effect<PayerHold, QuotaExhausted | PaidDailyCapReached | StoreUnavailable>;
    readonly commit: (
      wallet: string,
      holdId: string,
      now: number,
      through?: string,
    ) => Effect.Effect<QuotaView, StoreUnavailable>;
    readonly release: (
      wallet: string,
      holdId: string,
      now: number,
      through?: string,
    ) => Effect.Effect<QuotaView, StoreUnavailable>;
  }
>()("core/WalletCredits") {}
