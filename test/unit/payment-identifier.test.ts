/**
 * The payment identifier's format and rule (core/payments/payment-identifier.ts): the format
 * agrees with `@x402/extensions`' own check at every length and character class, and a kept
 * result is a replay for its own digest, a conflict for any other, for a day.
 */
import { describe, expect, test } from "bun:test";
import { isValidPaymentId } from "@x402/extensions/payment-identifier";
import fc from "fast-check";
import {
  isPaymentId,
  keptBody,
  MAX_KEPT_BODY_BYTES,
  PAID_RESULT_RETENTION_MS,
  resendOf,
} from "../../core/payments/payment-identifier.ts";

describe("payment identifier", () => {
  test("the format agrees with @x402/extensions' isValidPaymentId", () => {
    for (const length of [0, 15, 16, 17, 127, 128, 129])
      for (const char of ["a", "Z", "7", "-", "_", "!", " ", "é"]) {
        const id = char.repeat(length);
        expect(isPaymentId(id)).toBe(isValidPaymentId(id));
      }
    fc.assert(fc.property(fc.string({ maxLength: 140 }), (id) => isPaymentId(id) === isValidPaymentId(id)));
  });

  test("a kept result: its digest replays, another conflicts, and after a day it is forgotten", () => {
    const kept = { digest: "d", status: 200, headers: {}, body: "{}", keptAt: 1_000 };
    expect(resendOf(undefined, "d", 1_000).kind).toBe("new");
    expect(resendOf(kept, "d", 1_000 + PAID_RESULT_RETENTION_MS - 1)).toEqual({
      kind: "replay",
      result: kept,
    });
    expect(resendOf(kept, "e", 1_000).kind).toBe("conflict");
    expect(resendOf(kept, "d", 1_000 + PAID_RESULT_RETENTION_MS).kind).toBe("new");
  });

  test("a body is kept up to 32 KiB of UTF-8, not one byte more", () => {
    expect(keptBody("a".repeat(MAX_KEPT_BODY_BYTES))).toHaveLength(MAX_KEPT_BODY_BYTES);
    expect(keptBody("a".repeat(MAX_KEPT_BODY_BYTES + 1))).toBeUndefined();
    expect(keptBody("é".repeat(MAX_KEPT_BODY_BYTES / 2 + 1))).toBeUndefined();
  });
});
