/**
 * Sealed payment requests and sign-in nonces (core/payments/sealed-request.ts,
 * core/sign-in/sealed-nonce.ts) under the real HMAC: an id opens on the route it was issued for
 * and only there, any altered character or another key makes it unknown, and a claimed record
 * is kept until its request is past its grace (else its id would read as open again).
 */
import { describe, expect, test } from "bun:test";
import * as Result from "effect/Result";
import { hmacSeal, newSealKey } from "../../adapters/shared/hmac-seal.ts";
import { type Offer, openSealedPayment, sealPayment } from "../../core/payments/sealed-request.ts";
import { CLAIM_RETENTION_MS, forgetAt, SETTLE_GRACE_MS } from "../../core/payments/x402-ledger.ts";
import { sealedNonceExpiry, sealNonce } from "../../core/sign-in/sealed-nonce.ts";

const { mac } = hmacSeal(newSealKey());
const offer: Offer = {
  binding: { resource: "/premium-data", method: "GET" },
  units: 100_000n,
  payTo: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  network: "chain-devnet",
  description: "Premium data",
};
const EXPIRES = 1_800_000_000_000;
const reasonOf = (result: Result.Result<unknown, { reason: string }>) =>
  Result.isFailure(result) ? result.failure.reason : "ok";

describe("a sealed payment_id", () => {
  const issued = sealPayment(mac, offer, "5HueCGU8rMjxEXxi", EXPIRES);

  test("opens on its own route as the request issued, within the spec's 128 characters", () => {
    expect(issued.paymentId.length).toBeLessThanOrEqual(128);
    expect(issued.paymentId).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
    expect(Result.getOrThrow(openSealedPayment(mac, issued.paymentId, offer))).toEqual(issued);
  });

  test("another route, price or recipient: issued by us, for another resource", () => {
    for (const other of [
      { ...offer, binding: { resource: "/expensive-data", method: "GET" } },
      { ...offer, binding: { ...offer.binding, method: "POST" } },
      { ...offer, units: 1n },
      { ...offer, payTo: offer.mint },
    ])
      expect(reasonOf(openSealedPayment(mac, issued.paymentId, other))).toBe("payment-other-resource");
  });

  test("any altered character, another key or another shape: never issued", () => {
    const id = issued.paymentId;
    for (let i = 4; i < id.length; i++) {
      if (id[i] === "_") continue;
      const swapped = id[i] === "a" ? "b" : "a";
      const altered = `${id.slice(0, i)}${swapped}${id.slice(i + 1)}`;
      expect(reasonOf(openSealedPayment(mac, altered, offer))).toBe("payment-unknown");
    }
    expect(reasonOf(openSealedPayment(hmacSeal(newSealKey()).mac, id, offer))).toBe("payment-unknown");
    expect(reasonOf(openSealedPayment(mac, "pay_zbv4nkKNSLLGMBWaKJXbLK", offer))).toBe("payment-unknown");
  });

  test("a claimed record is kept a day, and at least until its request is past its grace", () => {
    const claimed = { issued, state: { kind: "served", signature: "s" } } as const;
    const now = EXPIRES - 10_000;
    expect(forgetAt(claimed, now)).toBe(now + CLAIM_RETENTION_MS);
    const longLived = { ...claimed, issued: { ...issued, expiresAt: now + 2 * CLAIM_RETENTION_MS } };
    expect(forgetAt(longLived, now)).toBe(now + 2 * CLAIM_RETENTION_MS + SETTLE_GRACE_MS);
  });
});

describe("a sealed sign-in nonce", () => {
  test("says until when it is valid, is alphanumeric and fits the proof's 64 characters", () => {
    const nonce = sealNonce(mac, "0123456789abcdef", EXPIRES);
    expect(nonce).toMatch(/^[0-9a-f]{8,64}$/);
    expect(sealedNonceExpiry(mac, nonce)).toBe(EXPIRES);
  });

  test("altered, under another key or invented: not ours", () => {
    const nonce = sealNonce(mac, "0123456789abcdef", EXPIRES);
    const later = `${(EXPIRES + 3_600_000).toString(16)}${nonce.slice(EXPIRES.toString(16).length)}`;
    expect(sealedNonceExpiry(mac, later)).toBeUndefined();
    expect(sealedNonceExpiry(hmacSeal(newSealKey()).mac, nonce)).toBeUndefined();
    expect(sealedNonceExpiry(mac, "0123456789abcdef0123456789abcdef")).toBeUndefined();
  });
});
