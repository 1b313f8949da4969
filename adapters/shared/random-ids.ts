/**
 * Random names the stores and the x402 paywall hand out: hold ids, payment ids and nonces.
 * Randomness lives here, in the adapters, because core never touches it.
 */

import { BASE58_ALPHABET } from "../../core/base58.ts";

const ALPHABET = BASE58_ALPHABET;

/** `length` uniform base58 characters from the platform's CSPRNG (about 5.86 bits each). */
export const randomBase58 = (length: number): string => {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      // 232 = 4 * 58: rejecting larger bytes keeps every character equally likely.
      if (byte < 232 && out.length < length) out += ALPHABET[byte % 58];
    }
  }
  return out;
};

/** A fresh hold id. */
export const newHoldId = (): string => crypto.randomUUID();
