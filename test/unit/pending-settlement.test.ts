/** The reconciler's verdict on a sent transaction, and the pending table's cap. */
import { describe, expect, test } from "bun:test";
import {
  fateOf,
  isDue,
  type PendingSettlement,
  recordPending,
} from "../../core/payments/pending-settlement.ts";

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
