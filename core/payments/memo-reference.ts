/**
 * A client's memo reference, sealed rather than stored: 16 base58 characters of
 *
 *   HMAC("memo-reference", <the site's memo prefix> "\n" <client identity>)
 *
 * under the key every instance sharing the store holds (the RequestSeal port). Asking for a
 * reference writes nothing, so a stranger with many addresses fills nothing; it is the same for
 * an identity on every request and instance (and across restarts where the key is kept, on
 * Redis), differs between sites (the prefix names the site), and tells nothing of the identity
 * without the key. A transfer proves it was made for its claimant when its memo carries the
 * reference worked out again for the claimant (verify-transfer.ts): another client's is refused.
 */
import * as Effect from "effect/Effect";
import { BASE58_ALPHABET } from "../base58.ts";
import { RequestSeal } from "../ports/request-seal.ts";
import { PaymentSettings } from "./payment-settings.ts";
import type { Mac } from "./sealed-request.ts";

/** 16 base58 characters: about 94 bits, short enough to type into a wallet's memo field. */
export const REFERENCE_LENGTH = 16;

const BASE = 58n;
/** 58^16: the 256-bit mac reduced modulo this is uniform to within 2^-162. */
const RANGE = BASE ** BigInt(REFERENCE_LENGTH);

/** The reference of `identity` on the site whose memos start with `memoPrefix`. */
export const memoReference = (mac: Mac, memoPrefix: string, identity: string): string => {
  let value = BigInt(`0x${mac("memo-reference", `${memoPrefix}\n${identity}`)}`) % RANGE;
  let out = "";
  for (let i = 0; i < REFERENCE_LENGTH; i++) {
    out = BASE58_ALPHABET[Number(value % BASE)] + out;
    value /= BASE;
  }
  return out;
};

/** The caller's reference on this site, worked out again on every request: nothing is kept. */
export const callerReference = (identity: string) =>
  Effect.gen(function* () {
    const seal = yield* RequestSeal;
    const settings = yield* PaymentSettings;
    return memoReference(seal.mac, settings.memoPrefix, identity);
  });
