/**
 * The claim and finish transitions of core/payments/x402-ledger.ts in Lua, so two instances racing on
 * one payment_id or one transaction see exactly its rules: every check runs before the first
 * write (Redis does not undo the writes of a script that fails halfway).
 *
 *   x402:<paymentId>  hash: nonce, resource, method, units, payTo, mint, network, expiresAt,
 *                     description, state (open|claimed|unserved|served), and once claimed:
 *                     signature, lease, leaseUntil. Written by `issue` with a PEXPIREAT of
 *                     expiresAt + grace; every claim or finish sets it to now + retention.
 *   sig:<signature>   the used-signature record of POST /api/payment, "usedAt|claimId|queries|identity".
 *
 * ARGV of both claim scripts: [now, freePerDay, paidDailyCap, holdTtlMs, resource, method,
 * signature, paidAt, lease, leaseUntil, served (0|1), signature memory ms, claim id, identity,
 * queries, retention ms, grace ms]. The first four are the quota prelude's, so the granting
 * script can credit in the same step. Reply: {1, reason} or {0, retry[, ...view]}.
 * The finish scripts end a claim by its lease; X402_SERVE_AND_GRANT also credits the queries
 * (x402 v2 on /api/chat: reserved by a claim before the money moves, credited after).
 */
import { PRELUDE } from "./quota-lua-prelude.ts";

/** Reads the record and the signature, checks in core's order; {0, retry} or {1, reason}. No writes. */
const CHECK = `
local function x402_check(pidKey, sigKey)
  local now = tonumber(ARGV[1])
  local raw = redis.call('HGETALL', pidKey)
  if #raw == 0 then return { 1, 'payment-unknown' } end
  local r = {}
  for i = 1, #raw, 2 do r[raw[i]] = raw[i + 1] end
  local expiresAt = tonumber(r.expiresAt or '')
  if r.state == nil or expiresAt == nil then error('corrupt payment request') end
  if r.resource ~= ARGV[5] or r.method ~= ARGV[6] then return { 1, 'payment-other-resource' } end
  if r.state == 'open' then
    if now >= expiresAt + tonumber(ARGV[17]) then return { 1, 'payment-expired' } end
    if tonumber(ARGV[8]) > expiresAt then return { 1, 'payment-expired' } end
    local used = redis.call('GET', sigKey)
    if used then
      local usedAt = string.match(used, '^(-?%d+)|')
      if usedAt == nil or now - tonumber(usedAt) < tonumber(ARGV[12]) then
        return { 1, 'signature-already-used' }
      end
    end
    return { 0, 0 }
  end
  local leaseUntil = tonumber(r.leaseUntil or '')
  local lapsed = r.state == 'claimed' and leaseUntil ~= nil and leaseUntil <= now
  if (r.state == 'unserved' or lapsed) and r.signature == ARGV[7] then return { 0, 1 } end
  return { 1, 'payment-already-used' }
end

local function x402_write(pidKey, sigKey, retry)
  local now = tonumber(ARGV[1])
  if retry == 0 then
    redis.call('SET', sigKey,
      string.format('%d', now) .. '|' .. ARGV[13] .. '|' .. ARGV[15] .. '|' .. ARGV[14],
      'PX', ARGV[12])
  end
  if ARGV[11] == '1' then
    redis.call('HSET', pidKey, 'state', 'served', 'signature', ARGV[7])
    redis.call('HDEL', pidKey, 'lease', 'leaseUntil')
  else
    redis.call('HSET', pidKey, 'state', 'claimed', 'signature', ARGV[7], 'lease', ARGV[9],
      'leaseUntil', ARGV[10])
  end
  redis.call('PEXPIRE', pidKey, ARGV[16])
end
`;

/** KEYS = [x402:<paymentId>, sig:<signature>]. */
export const X402_CLAIM = `${CHECK}
local checked = x402_check(KEYS[1], KEYS[2])
if checked[1] ~= 0 then return checked end
x402_write(KEYS[1], KEYS[2], checked[2])
return checked
`;

/** KEYS = [quota:<identity>, x402:<paymentId>, sig:<signature>]: the claim and the credits together. */
export const X402_CLAIM_AND_GRANT = `${PRELUDE}${CHECK}
local s = load()
local checked = x402_check(KEYS[2], KEYS[3])
if checked[1] ~= 0 then return checked end
x402_write(KEYS[2], KEYS[3], checked[2])
if checked[2] == 0 then
  s.credits = s.credits + num(ARGV[15]); s.dirty = true
end
save(s)
local v = view(s)
return { 0, checked[2], unpack(v) }
`;

/**
 * Ends the claim of a lease: served or unserved, the lease fields dropped, the retention
 * renewed. Nothing changes (0) when the record is not claimed with this lease.
 */
const FINISH = `
local function x402_finish(pidKey, lease, served, retention)
  local r = redis.call('HMGET', pidKey, 'state', 'lease')
  if r[1] ~= 'claimed' or r[2] ~= lease then return 0 end
  local state = 'unserved'
  if served == '1' then state = 'served' end
  redis.call('HSET', pidKey, 'state', state)
  redis.call('HDEL', pidKey, 'lease', 'leaseUntil')
  redis.call('PEXPIRE', pidKey, retention)
  return 1
end
`;

/** KEYS = [x402:<paymentId>], ARGV = [lease, served (0|1), retention ms]: 1 when it changed. */
export const X402_FINISH = `${FINISH}
return x402_finish(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
`;

/**
 * KEYS = [quota:<identity>, x402:<paymentId>], ARGV = [now, freePerDay, paidDailyCap,
 * holdTtlMs, lease, retention ms, queries]: served and the queries credited together, only
 * when this lease's claim ends here (so a repeated finish credits nothing).
 * Reply: {1, ...view} or {0}. The quota is loaded (and a corrupt one refused) before any write.
 */
export const X402_SERVE_AND_GRANT = `${PRELUDE}${FINISH}
local queries = num(ARGV[7])
local s = load()
if x402_finish(KEYS[2], ARGV[5], '1', ARGV[6]) == 0 then return { 0 } end
s.credits = s.credits + queries; s.dirty = true
save(s)
local v = view(s)
return { 1, unpack(v) }
`;
