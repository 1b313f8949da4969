/** The settlement locks' pure rule (core/payments/settlement-locks.ts), which both stores keep. */
import { expect, test } from "bun:test";
import {
  acquireVerdict,
  acquireVerdictOf,
  afterRelease,
  SETTLEMENT_COOL_DOWN_MS,
  SETTLEMENT_LOCK_MS,
  settlementKeysOf,
} from "../../core/payments/settlement-locks.ts";
import { FAILED_ON_CHAIN } from "../../src/payments/v2/fee-payer.ts";
import { holdAfter } from "../../src/payments/v2/settlement-guard.ts";

const settling = { holder: "T", until: 2_000, cooling: false };
const cooling = { holder: "T", until: 2_000, cooling: true };

test("free or lapsed: acquired; the holder's own settlement: held-by-holder; cooling: the holder may settle again", () => {
  expect(acquireVerdict(undefined, "T", 1_000)).toBe("acquired");
  expect(acquireVerdict(settling, "U", 2_000)).toBe("acquired");
  expect(acquireVerdict(settling, "T", 1_000)).toBe("held-by-holder");
  expect(acquireVerdict(settling, "U", 1_000)).toBe("held-by-other");
  expect(acquireVerdict(cooling, "T", 1_000)).toBe("acquired");
  expect(acquireVerdict(cooling, "U", 1_000)).toBe("held-by-other");
  expect(acquireVerdictOf(["acquired", "held-by-holder", "held-by-other"])).toBe("held-by-other");
  expect(acquireVerdictOf(["acquired", "held-by-holder"])).toBe("held-by-holder");
  expect(acquireVerdictOf(["acquired", "acquired"])).toBe("acquired");
});

test("a release frees the holder's lock or cools it down; another's is untouched; a lapsed one stays free", () => {
  expect(afterRelease(settling, "T", 1_000, 0)).toBeUndefined();
  expect(afterRelease(settling, "T", 1_000, 10_000)).toEqual({ holder: "T", until: 11_000, cooling: true });
  expect(afterRelease(settling, "U", 1_000, 10_000)).toEqual(settling);
  // A settlement that outlived its lock releases nothing (as on Redis, where the key expired).
  expect(afterRelease(settling, "T", 5_000, 10_000)).toBeUndefined();
});

test("a payment's keys: its paying wallet and its source token account", () => {
  expect(settlementKeysOf({ authority: "W", source: "S" })).toEqual(["payer:W", "source:S"]);
});

test("after a settlement the payer is free at once, cools 10 s after a failure on chain, and is held while an unknown one may still land", () => {
  expect(holdAfter({ ok: true })).toBe(0);
  expect(holdAfter({ ok: false, error: FAILED_ON_CHAIN })).toBe(SETTLEMENT_COOL_DOWN_MS);
  expect(holdAfter({ ok: false, error: "not confirmed in time" })).toBe(SETTLEMENT_LOCK_MS);
  expect(SETTLEMENT_LOCK_MS).toBeGreaterThan(90_000); // past any blockhash's lifetime
});
