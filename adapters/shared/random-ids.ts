/**
 * Random names the stores and the x402 paywall hand out: hold ids, payer-binding memo
 * references, payment ids and nonces. Randomness lives here, in the adapters, because core
 * never touches it.
 */

import { BASE58_ALPHABET } from "../../core/base58.ts";
import { DAY_MS } from "../../core/time.ts";

const ALPHABET = BASE58_ALPHABET;
/** 16 base58 characters: about 94 bits, short enough to type into a wallet's memo field. */
export const REFERENCE_LENGTH = 16;
/** A reference not asked for in this long is forgotten (each request refreshes it). */
export const REFERENCE_MEMORY_MS = 90 * DAY_MS;

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

/** A fresh memo reference: 16 uniform base58 characters. */
export const newReference = (): string => randomBase58(REFERENCE_LENGTH);

/** A fresh hold id. */
export const newHoldId = (): string => crypto.randomUUID();
