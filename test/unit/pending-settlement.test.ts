/** The reconciler's verdict on a sent transaction, the pending table's cap, and the sponsor's loss brakes. */
import { describe, expect, test } from "bun:test";
import {
  fateOf,
  isDue,
  type PendingSettlement,
  recordPending,
} from "../../core/payments/pending-settlement.ts";
import {
  budgetSpent,
  STRIKE_MEMORY_MS,
  sponsorRefusal,
  strikeAfterLoss,
} from "../../core/payments/sponsor-losses.ts";

const entry = (signature: string, since = 0): PendingSettlement => ({
  signature,
  kind: "paywall",
  paymentId: "pay",
  lease: "l",
  resource: "/r",
  method: "GET",
  identity: "",
  queries: 0,
  payer: "P",
  blockhash: "B",
  since,
});

describe("fateOf", () => {
  test("confirmed lands, an error fails, processed waits; unseen expires only once its blockhash is invalid", () => {
    expect(fateOf({ blockhashValid: false, status: "confirmed" })).toBe("landed");
    expect(fateOf({ blockhashValid: true, status: "failed" })).toBe("failed");
    expect(fateOf({ blockhashValid: false, status: "seen" })).toBe("unknown");
    expect(fateOf({ blockhashValid: true, status: "none" })).toBe("unknown");
    expect(fateOf({ blockhashValid: false, status: "none" })).toBe("expired");
  });
});

describe("recordPending and isDue", () => {
  test("a full table refuses a new transaction but records one it holds again", () => {
    const full = recordPending(recordPending(new Map(), entry("a"), 2) ?? new Map(), entry("b"), 2);
    expect(full?.size).toBe(2);
    expect(recordPending(full ?? new Map(), entry("c"), 2)).toBeUndefined();
    expect(recordPending(full ?? new Map(), { ...entry("a"), lease: "l2" }, 2)?.get("a")?.lease).toBe("l2");
  });
  test("an entry is its sender's for the wait, then the reconciler's", () => {
    expect(isDue(entry("a", 1_000), 60_999)).toBe(false);
    expect(isDue(entry("a", 1_000), 61_000)).toBe(true);
  });
});

describe("sponsor losses", () => {
  test("refusals grow 10 min, 1 h, 6 h, 24 h; strikes forgotten a week after the last; the budget is spent at it, never at 0 lost", () => {
    let record = strikeAfterLoss(undefined, 0);
    const refusals = [record.refusedUntil];
    for (let i = 1; i < 5; i += 1) {
      record = strikeAfterLoss(record, i);
      refusals.push(record.refusedUntil - i);
    }
    expect(refusals).toEqual([600_000, 3_600_000, 21_600_000, 86_400_000, 86_400_000]);
    expect(strikeAfterLoss(record, 4 + STRIKE_MEMORY_MS).strikes).toBe(1);
    expect(budgetSpent(0, 0)).toBe(false);
    expect(budgetSpent(10_001, 0)).toBe(true);
    expect(budgetSpent(9_999, 10_000)).toBe(false);
    expect(sponsorRefusal({ refusedUntil: 0, lostThisHour: 10_000 }, 1_800_000, 10_000)).toEqual({
      reason: "exact-sponsor-unavailable",
      retryAfterMs: 1_800_000,
    });
    expect(sponsorRefusal({ refusedUntil: 5_000, lostThisHour: 0 }, 1_000, 10_000)?.reason).toBe(
      "exact-payer-cooled-down",
    );
  });
});
