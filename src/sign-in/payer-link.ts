/** The wallet a client identity paid with, remembered so that identity keeps spending it (wallet-access.ts). */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { SESSION_TTL_MS } from "../../core/sign-in/sign-in-rules.ts";

/**
 * Links `identity` to `wallet` for as long as a session lasts, with the `queries` it just bought
 * there added to what it may spend of the wallet without a session; a failure only loses the
 * convenience (the wallet holds the credits).
 */
export const linkPayer = (identity: string, wallet: string, queries: number) =>
  Effect.ignore(
    Effect.flatMap(WalletSessions, (sessions) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sessions.link(identity, wallet, queries, now + SESSION_TTL_MS, now),
      ),
    ),
  );

/** The wallet the identity last paid with, if any. */
export const linkedWallet = (identity: string) =>
  Effect.flatMap(WalletSessions, (sessions) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => sessions.linked(identity, now)),
  );
