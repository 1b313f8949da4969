/**
 * A sign-in nonce that carries its own proof, so a challenge stores nothing:
 *
 *   <expiresAt, hex><16 random hex digits><first 32 hex digits of HMAC("siwx-nonce", random, expiresAt)>
 *
 * Alphanumeric (sign-in-with-x wants at least 8 such characters) and at most 59 long (the proof's
 * nonce may be 64). A valid mac proves we issued it and until when; the store writes it to its
 * used set only when a sign-in with it succeeds, kept until it expires, so it signs in once.
 */
import type { Mac } from "../payments/sealed-request.ts";

const RANDOM_HEX = 16;
const MAC_HEX = 32;
const SEALED_NONCE = /^([0-9a-f]{1,12})([0-9a-f]{16})([0-9a-f]{32})$/;

const nonceMac = (mac: Mac, random: string, expiresAt: number) =>
  mac("siwx-nonce", `${random}\n${expiresAt}`).slice(0, MAC_HEX);

/** A nonce valid until `expiresAt`; `random` is 16 hex digits from a CSPRNG. */
export const sealNonce = (mac: Mac, random: string, expiresAt: number): string =>
  `${expiresAt.toString(16)}${random.slice(0, RANDOM_HEX)}${nonceMac(mac, random.slice(0, RANDOM_HEX), expiresAt)}`;

/** Until when the nonce is valid, when we issued it; undefined for any other text. */
export const sealedNonceExpiry = (mac: Mac, nonce: string): number | undefined => {
  const parts = SEALED_NONCE.exec(nonce);
  if (parts === null) return undefined;
  const [, expiry = "", random = "", proof = ""] = parts;
  const expiresAt = Number.parseInt(expiry, 16);
  const expected = nonceMac(mac, random, expiresAt);
  let diff = expected.length ^ proof.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ proof.charCodeAt(i);
  return diff === 0 ? expiresAt : undefined;
};
