/**
 * The only identity the insights keep: a keyed, daily-rotated hash. It never equals or contains
 * the address it was made from, is stable within a UTC day, changes at midnight and with the
 * secret, and two addresses practically never share it.
 */
import { describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import fc from "fast-check";
import { VisitorHash } from "../../adapters/visitor-hash/index.ts";
import { identityOf } from "../../core/client-identity.ts";
import { parseIp } from "../../core/ip.ts";
import { DAY_MS } from "../../core/time.ts";

const RUNS = { numRuns: 500 };
const identity = fc.oneof(fc.ipV4(), fc.ipV6()).map((ip) => identityOf(parseIp(ip)));
const secret = fc.string({ minLength: 16, maxLength: 64 }).map((text) => Redacted.make(text));
const now = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) });

describe("visitor hashes", () => {
  test("never equal or contain the address, in any form", () =>
    fc.assert(
      fc.property(identity, secret, now, (id, key, at) => {
        const hash = VisitorHash.make(key).hash(id, at);
        expect(hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(hash).not.toBe(id);
        expect(hash).not.toContain(id);
        expect(hash).not.toContain(id.replace("::/64", ""));
      }),
      RUNS,
    ));

  test("are stable within a UTC day and change at midnight and with the secret", () =>
    fc.assert(
      fc.property(identity, secret, secret, now, (id, key, otherKey, at) => {
        const hasher = VisitorHash.make(key);
        const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
        expect(hasher.hash(id, dayStart)).toBe(hasher.hash(id, dayStart + DAY_MS - 1));
        expect(hasher.hash(id, dayStart + DAY_MS)).not.toBe(hasher.hash(id, dayStart));
        // A second hasher over the same secret (another instance) agrees; another secret does not.
        expect(VisitorHash.make(key).hash(id, at)).toBe(hasher.hash(id, at));
        if (Redacted.value(key) !== Redacted.value(otherKey))
          expect(VisitorHash.make(otherKey).hash(id, at)).not.toBe(hasher.hash(id, at));
      }),
      RUNS,
    ));

  test("differ between addresses (no collision among 2000 of them)", () => {
    const hasher = VisitorHash.make(Redacted.make("a secret of sixteen+ characters"));
    const ids = fc.sample(identity, 2000);
    const hashes = new Set(ids.map((id) => hasher.hash(id, Date.UTC(2030, 0, 1))));
    expect(hashes.size).toBe(new Set(ids).size);
  });

  test("without a configured secret, a random one per process: two hashers disagree", () => {
    const id = "203.0.113.7";
    expect(VisitorHash.make(undefined).hash(id, 0)).not.toBe(VisitorHash.make(undefined).hash(id, 0));
  });
});
