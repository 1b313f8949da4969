/**
 * Decoding of one identity's quota hash (layout: keys.ts) into a QuotaState, for the view.
 *
 * Why no script: the whole quota state of an identity is one hash, and one read command on
 * one key is atomic in Redis, so a single HGETALL always sees a state some script wrote in
 * full. The view is then computed in JS by core/quota.ts, exactly as the memory store does.
 *
 * The rules are the Lua load()'s (quota-lua-prelude.ts), so both refuse the same states: a
 * non-empty hash has all four of day, free, spent, credits; numbers are non-negative
 * integers of at most 15 digits; a hold is "f|<day>|<expiresAt>" or "p|<day>|<expiresAt>"
 * under "h:<holdId>"; any other field is corrupt. Corrupt state is refused, never guessed at.
 */
import { emptyQuota, type Hold, type QuotaState } from "../../../core/quota.ts";

const NUMBER = /^\d{1,15}$/;
const HOLD = /^([fp])\|(\d{1,15})\|(\d{1,15})$/;

/** The state in `hash` (an HGETALL reply), or undefined when it is not one our scripts write. */
export const decodeQuotaHash = (
  hash: Readonly<Record<string, string>>,
  now: number,
): QuotaState | undefined => {
  let day: number | undefined;
  let free: number | undefined;
  let spent: number | undefined;
  let credits: number | undefined;
  const holds: Hold[] = [];
  let fields = 0;
  for (const field of Object.keys(hash)) {
    fields++;
    const value = hash[field];
    if (typeof value !== "string") return undefined;
    if (field.startsWith("h:")) {
      const match = HOLD.exec(value);
      if (match === null) return undefined;
      holds.push({
        id: field.slice(2),
        bucket: match[1] === "f" ? "free" : "paid",
        day: Number(match[2]),
        expiresAt: Number(match[3]),
      });
      continue;
    }
    if (!NUMBER.test(value)) return undefined;
    const number = Number(value);
    if (field === "day") day = number;
    else if (field === "free") free = number;
    else if (field === "spent") spent = number;
    else if (field === "credits") credits = number;
    else return undefined;
  }
  if (fields === 0) return emptyQuota(now);
  if (day === undefined || free === undefined || spent === undefined || credits === undefined)
    return undefined;
  return { day, freeUsed: free, paidSpentToday: spent, paidCredits: credits, holds };
};
