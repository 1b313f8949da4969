/**
 * A quota state as the memory store keeps it: most states (no open hold, small counters) packed
 * into one number, which a Map holds without an object beside it. Measured at the soak's scale
 * (dev/bench/structures-heap.ts): 258 bytes of heap per client as objects. A state that does not
 * fit (an open hold, large counters, or a field this file does not know) is kept as it is, so
 * nothing is ever lost in packing; `unpackQuota` gives back an equal state either way.
 *
 * Layout (53 bits, a safe integer): day (16 bits: UTC days until 2149), freeUsed (8),
 * paidSpentToday (11), paidCredits (18).
 */
import type { QuotaState } from "../../core/quota.ts";

export type PackedQuota = QuotaState | number;

const FIELDS = ["day", "freeUsed", "paidSpentToday", "paidCredits", "holds"];
const [DAYS, FREE, SPENT, CREDITS] = [2 ** 16, 2 ** 8, 2 ** 11, 2 ** 18];
const NO_HOLDS: QuotaState["holds"] = Object.freeze([]);

const fits = (value: number, limit: number) => Number.isInteger(value) && value >= 0 && value < limit;

/** Exactly the fields packed here: a state carrying any other keeps its object form. */
const onlyKnownFields = (state: QuotaState) => {
  let count = 0;
  for (const key in state) {
    if (!FIELDS.includes(key)) return false;
    count++;
  }
  return count === FIELDS.length;
};

export const packQuota = (state: QuotaState): PackedQuota =>
  state.holds.length === 0 &&
  fits(state.day, DAYS) &&
  fits(state.freeUsed, FREE) &&
  fits(state.paidSpentToday, SPENT) &&
  fits(state.paidCredits, CREDITS) &&
  onlyKnownFields(state)
    ? ((state.day * FREE + state.freeUsed) * SPENT + state.paidSpentToday) * CREDITS + state.paidCredits
    : state;

export const unpackQuota = (packed: PackedQuota): QuotaState => {
  if (typeof packed !== "number") return packed;
  const paidCredits = packed % CREDITS;
  const rest = (packed - paidCredits) / CREDITS;
  const paidSpentToday = rest % SPENT;
  const dayAndFree = (rest - paidSpentToday) / SPENT;
  const freeUsed = dayAndFree % FREE;
  return { day: (dayAndFree - freeUsed) / FREE, freeUsed, paidSpentToday, paidCredits, holds: NO_HOLDS };
};
