/**
 * The writing transitions of core/quota.ts, in Lua, so each runs inside Redis as one atomic
 * script (no other client can interleave between its read and its write). The view needs no
 * script: it is one HGETALL (quota-hash.ts).
 *
 * Every script gets KEYS[1] = the identity's quota hash and
 * ARGV = [now, freePerDay, paidDailyCap, holdTtlMs, ...]. The day is computed from `now`
 * (the caller's clock), never from Redis's, so instances and tests agree on it; TTLs are set
 * relative to `now` for the same reason.
 *
 *   quota:<identity>  hash {day, free, spent, credits, h:<holdId>...}
 *     day, free, spent  counters of UTC day `day`
 *     credits           paid credits, survive day changes
 *     h:<holdId>        an open hold, "f|<day>|<expiresAt>" or "p|<day>|<expiresAt>"
 *   After its writes a script applies the TTL rule: credits > 0 -> PERSIST; nothing left
 *   (free = spent = credits = 0, no holds) -> DEL; otherwise the hash expires at the end of
 *   UTC day `day` + 1 h (holds last 120 s, so they are covered).
 *
 * Every read and check runs before the first write, and a hash with a value we did not write
 * (not a number, an unparseable hold, an unknown field) fails the script before any write.
 */

import { SIGNATURE } from "../payments/signature-lua.ts";
import { PRELUDE } from "./quota-lua-prelude.ts";

/**
 * reserve, ARGV[5] = holdId: {0, bucket, day, expiresAt, remaining, resetAt, requiresPayment, free, paid}
 * or {1, resetAt} (QuotaExhausted) or {2, resetAt} (PaidDailyCapReached).
 * A resent reserve with a hold id that is already held returns that hold (no second hold).
 */
export const RESERVE = `${PRELUDE}
local s = load()
local id = ARGV[5]
local h = s.holds[id]
if not h then
  local bucket, refused = pick_bucket(s)
  if bucket == nil then
    save(s)
    return { refused, (today + 1) * DAY }
  end
  h = { bucket = bucket, day = s.day, exp = now + holdTtl }
  put(s, id, h)
  save(s)
end
local v = view(s)
return { 0, h.bucket, h.day, h.exp, v[1], v[2], v[3], v[4], v[5] }
`;

/** commit, ARGV[5] = holdId: a view. Unknown holds change nothing, so commit is idempotent. */
export const COMMIT = `${PRELUDE}
local s = load()
local h = take(s, ARGV[5])
if h then
  local sameDay = 0
  if h.day == s.day then sameDay = 1 end
  if h.bucket == 'f' then
    s.free = s.free + sameDay
  else
    s.credits = s.credits - 1
    s.spent = s.spent + sameDay
  end
end
save(s)
return view(s)
`;

/** release, ARGV[5] = holdId: a view. */
export const RELEASE = `${PRELUDE}
local s = load()
take(s, ARGV[5])
save(s)
return view(s)
`;

/**
 * claim, KEYS[2] = signature key, ARGV[5] = identity, ARGV[6] = queries,
 * ARGV[7] = signature memory ms, ARGV[8] = claim id: {0, remaining, resetAt, requiresPayment, free, paid}
 * or {1} (AlreadyClaimed). The signature record and the credits are written together or
 * not at all: every read and check runs before the first write, because Redis does not undo
 * the earlier writes of a script that fails halfway. A resend of the same claim (same claim
 * id, e.g. after a lost reply) is answered as the success it was instead of AlreadyClaimed.
 */
export const CLAIM = `${PRELUDE}${SIGNATURE}
local memory = num(ARGV[7])
local queries = num(ARGV[6])
local s = load()
local state = signature_state(KEYS[2], now, memory, ARGV[8])
if state == 'used' then return { 1 } end
if state == 'free' then
  signature_mark(KEYS[2], now, memory, ARGV[8], ARGV[6], ARGV[5])
  s.credits = s.credits + queries; s.dirty = true
end
save(s)
local v = view(s)
return { 0, v[1], v[2], v[3], v[4], v[5] }
`;
