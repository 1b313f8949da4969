import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { StoreUnavailable } from "./store-errors.ts";

/** What a session token's hash stands for at a given time. */
export type SessionLookup =
  | { readonly kind: "active"; readonly wallet: string; readonly expiresAt: number }
  | { readonly kind: "revoked" }
  | { readonly kind: "unknown" };

/**
 * Browser sessions of wallets, the wallet each paying identity paid with, and the nonces of
 * sign-in challenges, shared by every instance.
 * Sessions are stored under the SHA-256 of their token (a copy of the store holds no usable
 * token). A wallet holds at most MAX_SESSIONS_PER_WALLET live sessions (core/sign-in/session-ceilings.ts):
 * opening one more revokes its oldest, atomically. Sessions of wallets without credits, and closed
 * ones, are evicted oldest first past a global cap (SessionCeilings); a closed session reads
 * revoked for a day at most, then unknown. Sign-in nonces are sealed (core/sign-in/sealed-nonce.ts),
 * not stored when issued: `useNonce` writes one to the used set, true for exactly one caller.
 */
export class WalletSessions extends Context.Service<
  WalletSessions,
  {
    /** Opens a session; past MAX_SESSIONS_PER_WALLET live ones, the wallet's oldest is revoked. */
    readonly open: (
      tokenHash: string,
      wallet: string,
      expiresAt: number,
      now: number,
    ) => Effect.Effect<void, StoreUnavailable>;
    readonly find: (tokenHash: string, now: number) => Effect.Effect<SessionLookup, StoreUnavailable>;
    /** Signs one session out; it reads as revoked for CLOSED_SESSION_MS at most (or until evicted). */
    readonly close: (tokenHash: string, now: number) => Effect.Effect<void, StoreUnavailable>;
    /** Revokes every session of the wallet opened so far (a sign-in that asks for it). */
    readonly closeAll: (wallet: string, now: number) => Effect.Effect<void, StoreUnavailable>;
    /**
     * Remembers that this client identity paid with `wallet` (until `expiresAt`) and bought
     * `queries` through it: a client that sends no session (the spec's clients, identified by IP
     * alone) keeps spending what it bought, and no more (core/payments/link-allowance.ts).
     */
    readonly link: (
      identity: string,
      wallet: string,
      queries: number,
      expiresAt: number,
      now: number,
    ) => Effect.Effect<void, StoreUnavailable>;
    readonly linked: (identity: string, now: number) => Effect.Effect<string | undefined, StoreUnavailable>;
    /**
     * Whether the nonce was already used (a read, nothing written): checked before a sign-in is
     * counted, so replaying a used proof cannot spend the wallet's sign-ins.
     */
    readonly nonceUsed: (nonce: string, now: number) => Effect.Effect<boolean, StoreUnavailable>;
    /**
     * Marks a (proven, unexpired) nonce used until `expiresAt`: true for the first caller, false
     * for every later one. Called only by a sign-in whose proof passed every other check.
     */
    readonly useNonce: (
      nonce: string,
      expiresAt: number,
      now: number,
    ) => Effect.Effect<boolean, StoreUnavailable>;
    /**
     * Counts a sign-in of the wallet: false when it already signed in MAX_SIGN_INS_PER_WALLET
     * times in the current SIGN_IN_WINDOW_MS (nothing is counted then).
     */
    readonly countSignIn: (wallet: string, now: number) => Effect.Effect<boolean, StoreUnavailable>;
  }
>()("core/WalletSessions") {}
