import { describe, expect, test } from "bun:test";
import {
  isFreshEnough,
  isRemembered,
  MAX_TRANSACTION_AGE_MS,
  markUsed,
  SIGNATURE_MEMORY_MS,
} from "../../core/payments/signature-ledger.ts";
import { DAY_MS, nextUtcMidnight, utcDay } from "../../core/time.ts";

const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);

describe("signature ledger", () => {
  test("memory is 30 days, the accepted transaction age 29 days", () => {
    expect(SIGNATURE_MEMORY_MS).toBe(30 * DAY_MS);
    expect(MAX_TRANSACTION_AGE_MS).toBe(29 * DAY_MS);
  });

  test("a use is remembered for 30 days, not one millisecond longer", () => {
    const entry = { usedAt: T0, identity: "1.2.3.4", queries: 50 };
    expect(isRemembered(undefined, T0)).toBe(false);
    expect(isRemembered(entry, T0)).toBe(true);
    expect(isRemembered(entry, T0 + 30 * DAY_MS - 1)).toBe(true);
    expect(isRemembered(entry, T0 + 30 * DAY_MS)).toBe(false);
  });

  test("a transaction may be claimed up to 29 days after its block time", () => {
    const blockTime = T0 / 1000;
    expect(isFreshEnough(blockTime, T0)).toBe(true);
    expect(isFreshEnough(blockTime, T0 + 29 * DAY_MS)).toBe(true);
    expect(isFreshEnough(blockTime, T0 + 29 * DAY_MS + 1)).toBe(false);
    // A block time slightly ahead of our clock (skew) is still fresh.
    expect(isFreshEnough(blockTime + 5, T0)).toBe(true);
  });

  test("marking a signature used twice fails while it is remembered", () => {
    const first = markUsed(undefined, T0, "1.2.3.4", 50);
    expect(first).toEqual({ usedAt: T0, identity: "1.2.3.4", queries: 50 });
    expect(markUsed(first, T0, "5.6.7.8", 50)).toBeUndefined();
    expect(markUsed(first, T0 + 30 * DAY_MS - 1, "1.2.3.4", 50)).toBeUndefined();
    expect(markUsed(first, T0 + 30 * DAY_MS, "5.6.7.8", 10)).toEqual({
      usedAt: T0 + 30 * DAY_MS,
      identity: "5.6.7.8",
      queries: 10,
    });
  });

  test("a forgotten signature can never be claimed again: it is too old by then", () => {
    const blockTime = T0 / 1000;
    for (const claimedAfter of [0, DAY_MS, 29 * DAY_MS]) {
      const usedAt = T0 + claimedAfter;
      const forgottenAt = usedAt + SIGNATURE_MEMORY_MS;
      expect(isRemembered({ usedAt, identity: "a", queries: 1 }, forgottenAt)).toBe(false);
      expect(isFreshEnough(blockTime, forgottenAt)).toBe(false);
    }
  });
});

describe("UTC days", () => {
  test("day index and next midnight", () => {
    const midnight = Date.UTC(2025, 5, 2);
    expect(utcDay(midnight - 1)).toBe(utcDay(midnight) - 1);
    expect(nextUtcMidnight(midnight - 1)).toBe(midnight);
    expect(nextUtcMidnight(midnight)).toBe(midnight + DAY_MS);
    expect(nextUtcMidnight(T0)).toBe(midnight);
  });
});
