/**
 * Every refusal of a sign-in or a session, rendered once: the public code, the status and the
 * text (core states the reason only). A new reason cannot ship untranslated.
 */
import type { SignInRefusalReason } from "../../core/sign-in/sign-in-rules.ts";

interface Rendering {
  readonly status: 400 | 401 | 429 | 503;
  readonly code: string;
  readonly error: string;
}

export const SIGN_IN_REFUSALS = {
  "proof-malformed": {
    status: 400,
    code: "SIGN_IN_MALFORMED",
    error: "The sign-in proof is not a Sign-In With Solana message of this service",
  },
  "wrong-domain": {
    status: 401,
    code: "SIGN_IN_WRONG_DOMAIN",
    error: "The message was signed for another domain",
  },
  "wrong-uri": {
    status: 401,
    code: "SIGN_IN_WRONG_URI",
    error: "The message's URI is not this service's origin",
  },
  "wrong-chain": { status: 401, code: "SIGN_IN_WRONG_CHAIN", error: "The message names another chain" },
  "issued-in-future": {
    status: 401,
    code: "SIGN_IN_ISSUED_IN_FUTURE",
    error: "The message's issuedAt is in the future",
  },
  "issued-too-long-ago": {
    status: 401,
    code: "SIGN_IN_TOO_OLD",
    error: "The message was issued too long ago; ask for a new challenge",
  },
  expired: {
    status: 401,
    code: "SIGN_IN_EXPIRED",
    error: "The message has expired; ask for a new challenge",
  },
  "not-yet-valid": { status: 401, code: "SIGN_IN_NOT_YET_VALID", error: "The message is not valid yet" },
  "nonce-unknown": {
    status: 401,
    code: "SIGN_IN_NONCE_USED",
    error: "The nonce was already used or never issued here; ask for a new challenge",
  },
  "signature-invalid": {
    status: 401,
    code: "SIGN_IN_BAD_SIGNATURE",
    error: "The signature is not the wallet's signature of this message",
  },
  "session-unknown": {
    status: 401,
    code: "SESSION_UNKNOWN",
    error: "The wallet session is unknown or has expired; sign in again",
  },
  "session-revoked": {
    status: 401,
    code: "SESSION_REVOKED",
    error: "The wallet session was signed out; sign in again",
  },
  "too-many-attempts": {
    status: 429,
    code: "TOO_MANY_SIGN_IN_ATTEMPTS",
    error: "Too many sign-in attempts from this client; wait a minute",
  },
  "too-many-sign-ins": {
    status: 429,
    code: "TOO_MANY_SIGN_INS",
    error: "This wallet signed in too often this hour; use one of its sessions or wait",
  },
  "sign-in-not-offered": {
    status: 503,
    code: "SIGN_IN_UNAVAILABLE",
    error: "Signing in with a wallet is not offered by this service",
  },
} as const satisfies Record<SignInRefusalReason, Rendering>;

/** The JSON body and status of a refusal. */
export const renderSignInRefusal = (reason: SignInRefusalReason) => {
  const { status, code, error } = SIGN_IN_REFUSALS[reason];
  return { status, body: { success: false as const, error, code } };
};
