/**
 * Browser session tokens: 32 random bytes (base64url), handed to their owner once and stored
 * only as their SHA-256, so neither the store nor a log line ever holds a usable token.
 */
import { sha256Hex } from "../payments/sha256-hex.ts";

export const SESSION_HEADER = "X-Wallet-Session";

/** A fresh unguessable token. */
export const newSessionToken = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
};

/** Whether text has the shape of one of our tokens (anything else is refused before hashing). */
export const isSessionTokenShaped = (text: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(text);

/** The store's name for a token. */
export const hashSessionToken = (token: string): Promise<string> => sha256Hex(token);

/** 16 random bytes as 32 hex characters: the nonce format of sign-in-with-x. */
export const newSignInNonce = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join(
    "",
  );
