/**
 * VisitorHasher with HMAC-SHA256: the key of day d is HMAC(secret, "visitor-salt|d"), and a
 * visitor is HMAC(key of the day, identity), cut to 128 bits in base64url (22 characters). The
 * day's key is derived, never stored, so reading an address back from a hash needs the secret,
 * and hashes of two days cannot be linked without it. Without a configured secret, a random one
 * lives as long as the process.
 */
import { createHmac, randomBytes } from "node:crypto";
import * as Layer from "effect/Layer";
import * as Redacted from "effect/Redacted";
import { VisitorHasher } from "../../core/ports/visitor-hasher.ts";
import { utcDay } from "../../core/time.ts";

export const HASH_LENGTH = 22;

/** The hasher over `secret`; the key of the current day is derived once per day. */
export const make = (secret: Redacted.Redacted<string> | undefined) => {
  const key = secret === undefined ? randomBytes(32) : Redacted.value(secret);
  let day = Number.NaN;
  let dayKey = Buffer.alloc(0);
  return VisitorHasher.of({
    hash: (identity, now) => {
      if (utcDay(now) !== day) {
        day = utcDay(now);
        dayKey = createHmac("sha256", key).update(`visitor-salt|${day}`).digest();
      }
      return createHmac("sha256", dayKey).update(identity).digest("base64url").slice(0, HASH_LENGTH);
    },
  });
};

export const layer = (secret: Redacted.Redacted<string> | undefined) =>
  Layer.sync(VisitorHasher)(() => make(secret));
