import { Context, type Effect } from "effect";
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
 * token). A nonce is issued once and can be used once: `useNonce` is true for exactly one caller.
 */
export class WalletSessions extends Context.Service<
  WalletSessions,
  {
    readonly open: (
      tokenHash: string,
      wallet: string,
      expiresAt: number,
      now: number,
    ) => Effect.Effect<void, StoreUnavailable>;
    readonly find: (tokenHash: string, now: number) => Effect.Effect<SessionLookup, StoreUnavailable>;
    /** Signs one session out; it reads as revoked until it would have expired. */
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
    readonly issueNonce: (
      nonce: string,
      expiresAt: number,
      now: number,
    ) => Effect.Effect<void, StoreUnavailable>;
    /** True once for a nonce issued and not expired; false after (or for one never issued). */
    readonly useNonce: (nonce: string, now: number) => Effect.Effect<boolean, StoreUnavailable>;
  }
>()("core/WalletSessions") {}
