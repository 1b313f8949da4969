/**
 * Random names the stores hand out: hold ids and payer-binding memo references. Randomness
 * lives here, in the adapters, because core never touches it.
 */

import { BASE58_ALPHABET } from "../../core/base58.ts";
import { DAY_MS } from "../../core/time.ts";

const ALPHABET = BASE58_ALPHABET;
/** 16 base58 characters: about 94 bits, short enough to type into a wallet's memo field. */
export const REFERENCE_LENGTH = 16;
/** A reference not asked for in this long is forgotten (each request refreshes it). */
export const REFERENCE_MEMORY_MS = 90 * DAY_MS;

/** A fresh memo reference: 16 uniform base58 characters from the platform's CSPRNG. */
export const newReference = (): string => {
  let out = "";
  while (out.length < REFERENCE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      // 232 = 4 * 58: rejecting larger bytes keeps every character equally likely.
      if (byte < 232 && out.length < REFERENCE_LENGTH) out += ALPHABET[byte % 58];
    }
  }
  return out;
};

/** A fresh hold id. */
export const newHoldId = (): string => crypto.randomUUID();
