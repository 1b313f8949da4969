/**
 * The memory store packs most quota states into one number: any state, packed or kept as it
 * is (an open hold, counters too large, a field the packing does not know), reads back equal.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { packQuota, unpackQuota } from "../../adapters/store-memory/packed-quota.ts";
import type { QuotaState } from "../../core/quota.ts";

const hold = fc.record({
  id: fc.uuid(),
  bucket: fc.constantFrom("free" as const, "paid" as const),
  day: fc.nat({ max: 70_000 }),
  expiresAt: fc.nat({ max: 2 ** 45 }),
});
// Around each field's packed width, so both forms are drawn.
const state: fc.Arbitrary<QuotaState> = fc.record({
  day: fc.oneof(fc.nat({ max: 2 ** 16 - 1 }), fc.nat({ max: 2 ** 18 })),
  freeUsed: fc.nat({ max: 300 }),
  paidSpentToday: fc.nat({ max: 2100 }),
  paidCredits: fc.oneof(fc.nat({ max: 2 ** 18 - 1 }), fc.nat({ max: 2 ** 40 })),
  holds: fc.oneof(fc.constant([]), fc.array(hold, { maxLength: 3 })),
});

test("a quota state reads back equal, packed or not", () => {
  fc.assert(
    fc.property(state, (s) => {
      expect(unpackQuota(packQuota(s))).toEqual(s);
    }),
    { numRuns: 5000 },
  );
});

test("a free-only state with no open hold packs into a number", () => {
  expect(typeof packQuota({ day: 20_500, freeUsed: 3, paidSpentToday: 0, paidCredits: 0, holds: [] })).toBe(
    "number",
  );
});

test("a state with a field the packing does not know keeps its object form", () => {
  const wider = { day: 1, freeUsed: 0, paidSpentToday: 0, paidCredits: 0, holds: [], wallet: "w" };
  expect(packQuota(wider)).toBe(wider);
});
