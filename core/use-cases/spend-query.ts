/**
 * Which account a question is charged to. A client that holds a wallet's session (or signed in
 * with the wallet) spends the wallet's credits first, then the free questions of its identity
 * (and any credits its identity held from before credits followed the payer); a client without
 * one spends its identity's quota alone. The view it sees adds both (wallet-credits.ts). A
 * client that reaches the wallet through its identity's payer link (it paid from this address
 * and sends no session) spends no more of it than was bought from that identity
 * (core/payments/link-allowance.ts).
 */
import { Effect } from "effect";
import { combinedView } from "../payments/wallet-credits.ts";
import { QuotaStore } from "../ports/quota-store.ts";
import { WalletCredits } from "../ports/wallet-credits.ts";
import type { Hold, QuotaView } from "../quota.ts";

/** Who is asking: the client identity (an IP), and the wallet whose credits it may spend. */
export interface Spender {
  readonly identity: string;
  readonly wallet?: string | undefined;
  /** The wallet is reached through the identity's payer link (no session, no signature). */
  readonly throughLink?: boolean | undefined;
}

/** The identity whose payer link caps the spend, if the spender goes through one. */
const linkOf = (spender: Spender): string | undefined =>
  spender.throughLink === true ? spender.identity : undefined;

/** A held query and where it is held. */
export interface HeldQuery {
  readonly hold: Hold;
  readonly onWallet: boolean;
}

const reserveOnIdentity = (quota: QuotaStore["Service"], spender: Spender, now: number) =>
  Effect.map(quota.reserve(spender.identity, now), ({ hold }): HeldQuery => ({ hold, onWallet: false }));

/** Holds one query: the wallet's credits first, then the identity's quota. */
export const reserveQuery = (spender: Spender, now: number) =>
  Effect.gen(function* () {
    const quota = yield* QuotaStore;
    const { wallet } = spender;
    if (wallet === undefined) return yield* reserveOnIdentity(quota, spender, now);
    const wallets = yield* WalletCredits;
    return yield* wallets.reserve(wallet, now, linkOf(spender)).pipe(
      Effect.map(({ hold }): HeldQuery => ({ hold, onWallet: true })),
      Effect.catchTag("QuotaExhausted", () => reserveOnIdentity(quota, spender, now)),
      // The wallet's daily cap is reached: the identity's questions may still answer, else the cap is the reason.
      Effect.catchTag("PaidDailyCapReached", (capped) =>
        reserveOnIdentity(quota, spender, now).pipe(
          Effect.catchTag("QuotaExhausted", () => Effect.fail(capped)),
        ),
      ),
    );
  });

/** What the spender sees: its identity's view, plus its wallet's paid questions. */
export const spenderView = (spender: Spender, now: number) =>
  Effect.gen(function* () {
    const quota = yield* QuotaStore;
    const client = yield* quota.view(spender.identity, now);
    if (spender.wallet === undefined) return client;
    const wallets = yield* WalletCredits;
    return combinedView(client, yield* wallets.view(spender.wallet, now, linkOf(spender)));
  });

/** Commits or releases a held query where it is held; the spender's view after. */
export const settleQuery = (
  spender: Spender,
  held: HeldQuery,
  outcome: "commit" | "release",
  now: number,
): Effect.Effect<QuotaView, Effect.Error<ReturnType<typeof spenderView>>, QuotaStore | WalletCredits> =>
  Effect.gen(function* () {
    if (held.onWallet && spender.wallet !== undefined) {
      const wallets = yield* WalletCredits;
      yield* wallets[outcome](spender.wallet, held.hold.id, now, linkOf(spender));
      return yield* spenderView(spender, now);
    }
    const quota = yield* QuotaStore;
    const view = yield* quota[outcome](spender.identity, held.hold.id, now);
    if (spender.wallet === undefined) return view;
    const wallets = yield* WalletCredits;
    return combinedView(view, yield* wallets.view(spender.wallet, now, linkOf(spender)));
  });
