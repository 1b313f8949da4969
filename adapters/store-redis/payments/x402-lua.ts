/**
 * The claim and finish transitions of core/payments/x402-ledger.ts in Lua, so two instances racing on
 * one payment_id or one transaction see exactly its rules: every check runs before the first
 * write (Redis does not undo the writes of a script that fails halfway).
 *
 *   x402:<paymentId>  hash: nonce, resource, method, units, payTo, mint, network, expiresAt,
 *                     description, state (open|claimed|unserved|served), forgetAt, and once
 *                     claimed: signature, lease, leaseUntil. Written by `issue` with forgetAt
 *                     and a PEXPIREAT of expiresAt + grace (or, sealed, by the first claim);
 *                     every claim or finish sets both to now + retention, and at least to
 *                     expiresAt + grace (a sealed id must not read as open again). From
 *                     forgetAt on (by the caller's `now`, as the memory store goes) the record
 *                     is unknown to every script and to `find`; the TTL only frees the memory. Records written before forgetAt existed have none
 *                     and live by their TTL alone.
 *   sig:<signature>   the used-signature record of POST /api/payment (signature-lua.ts).
 *
 * ARGV of both claim scripts: [now, freePerDay, paidDailyCap, holdTtlMs, resource, method,
 * signature, paidAt, lease, leaseUntil, served (0|1), signature memory ms, claim id, identity,
 * queries, retention ms, grace ms, sealed (0|1), and the sealed request's nonce, resource, method,
 * units, payTo, mint, network, expiresAt, description], and last accepts-late (0|1, ClaimInput.acceptsLate:
 * neither grace refuses the claim): a sealed request the caller proved ours
 * is claimed as open when no record is stored, and written then. The first four are the quota prelude's, so the granting
 * script can credit in the same step. Reply: {1, reason} or {0, retry[, ...view]}.
 * The finish scripts end a claim by its lease; X402_SERVE_AND_GRANT also credits the queries
 * (x402 v2 on /api/chat: reserved by a claim before the money moves, credited after).
 */
import { LATE_TRANSFER_GRACE_MS, SETTLE_GRACE_MS } from "../../../core/payments/x402-ledger.ts";
import { PRELUDE } from "../quota/quota-lua-prelude.ts";
import { SIGNATURE } from "./signature-lua.ts";

/**
 * The record's fields, or nil when there is none or it is forgotten at `now` (isForgotten in
 * core/payments/x402-ledger.ts). A forgetAt that is not a number is corrupt. No writes.
 */
const LIVE = `
local function x402_live(pidKey, now)
  local raw = redis.call('HGETALL', pidKey)
  if #raw == 0 then return nil end
  local r = {}
  for i = 1, #raw, 2 do r[raw[i]] = raw[i + 1] end
  if r.forgetAt ~= nil then
    -- Digits only, as the record's decoder reads it (x402-record.ts).
    if not string.find(r.forgetAt, '^%d+$') then error('corrupt payment request') end
    if now >= tonumber(r.forgetAt) then return nil end
  end
  return r
end

-- The caller's proven sealed request (ARGV[18] = '1', fields in ARGV[19..27]) as an open record.
local function x402_sealed(now)
  if ARGV[18] ~= '1' then return nil end
  return { nonce = ARGV[19], resource = ARGV[20], method = ARGV[21], units = ARGV[22], payTo = ARGV[23],
    mint = ARGV[24], network = ARGV[25], expiresAt = ARGV[26], description = ARGV[27], state = 'open' }
end

-- forgetAt of a claimed record (core's forgetAt): the retention, and at least past the request's
-- grace, or its sealed id would read as open again.
local function x402_keep(pidKey, now, retention)
  local expiresAt = tonumber(redis.call('HGET', pidKey, 'expiresAt') or '0') or 0
  return math.max(now + tonumber(retention), expiresAt + ${SETTLE_GRACE_MS})
end
`;

/** Reads the record and the signature, checks in core's order; {0, retry} or {1, reason}. No writes. */
const CHECK = `${LIVE}${SIGNATURE}
local function x402_check(pidKey, sigKey)
  local now = tonumber(ARGV[1])
  local r = x402_live(pidKey, now)
  if r == nil then r = x402_sealed(now) end
  if r == nil then return { 1, 'payment-unknown' } end
  local expiresAt = tonumber(r.expiresAt or '')
  if r.state == nil or expiresAt == nil then error('corrupt payment request') end
  if r.resource ~= ARGV[5] or r.method ~= ARGV[6] then return { 1, 'payment-other-resource' } end
  if r.state == 'open' then
    local acceptsLate = ARGV[#ARGV] == '1'
    if not acceptsLate and now >= expiresAt + tonumber(ARGV[17]) then return { 1, 'payment-expired' } end
    if not acceptsLate and tonumber(ARGV[8]) > expiresAt + ${LATE_TRANSFER_GRACE_MS} then
      return { 1, 'payment-expired' }
    end
    if signature_state(sigKey, now, tonumber(ARGV[12]), ARGV[13]) ~= 'free' then
      return { 1, 'signature-already-used' }
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
  if retry == 0 and ARGV[18] == '1' and x402_live(pidKey, now) == nil then
    redis.call('DEL', pidKey)
    redis.call('HSET', pidKey, 'nonce', ARGV[19], 'resource', ARGV[20], 'method', ARGV[21], 'units', ARGV[22],
      'payTo', ARGV[23], 'mint', ARGV[24], 'network', ARGV[25], 'expiresAt', ARGV[26],
      'description', ARGV[27], 'state', 'open')
  end
  local keep = x402_keep(pidKey, now, ARGV[16])
  local forgetAt = string.format('%d', keep)
  if retry == 0 then signature_mark(sigKey, now, tonumber(ARGV[12]), ARGV[13], ARGV[15], ARGV[14]) end
  if ARGV[11] == '1' then
    redis.call('HSET', pidKey, 'state', 'served', 'signature', ARGV[7], 'forgetAt', forgetAt)
    redis.call('HDEL', pidKey, 'lease', 'leaseUntil')
  else
    redis.call('HSET', pidKey, 'state', 'claimed', 'signature', ARGV[7], 'lease', ARGV[9],
      'leaseUntil', ARGV[10], 'forgetAt', forgetAt)
  end
  redis.call('PEXPIREAT', pidKey, keep)
end
`;

/** KEYS = [x402:<paymentId>, sig:<signature>]. */
export const X402_CLAIM = `${CHECK}
local checked = x402_check(KEYS[1], KEYS[2])
if checked[1] ~= 0 then return checked end
x402_write(KEYS[1], KEYS[2], checked[2])
return checked
`;

/**
 * KEYS = [quota:<identity>, x402:<paymentId>, sig:<signature>]: the claim and the credits
 * together. A claim that serves credits whether or not it is a retry (Claimed.credit in core): a
 * record open to a retry was never served, so it was never credited.
 */
export const X402_CLAIM_AND_GRANT = `${PRELUDE}${CHECK}
local s = load()
local checked = x402_check(KEYS[2], KEYS[3])
if checked[1] ~= 0 then return checked end
x402_write(KEYS[2], KEYS[3], checked[2])
if ARGV[11] == '1' then
  s.credits = s.credits + num(ARGV[15]); s.dirty = true
end
save(s)
local v = view(s)
return { 0, checked[2], unpack(v) }
`;

/**
 * Ends the claim of a lease: served or unserved, the lease fields dropped, the retention
 * renewed. Nothing changes (0) when the record is not claimed with this lease, or is forgotten.
 */
const FINISH = `${LIVE}
local function x402_finish(pidKey, lease, served, retention, now)
  local r = x402_live(pidKey, now)
  if r == nil or r.state ~= 'claimed' or r.lease ~= lease then return 0 end
  local state = 'unserved'
  if served == '1' then state = 'served' end
  local keep = x402_keep(pidKey, now, retention)
  redis.call('HSET', pidKey, 'state', state, 'forgetAt', string.format('%d', keep))
  redis.call('HDEL', pidKey, 'lease', 'leaseUntil')
  redis.call('PEXPIREAT', pidKey, keep)
  return 1
end
`;

/** KEYS = [x402:<paymentId>], ARGV = [lease, served (0|1), retention ms, now]: 1 when it changed. */
export const X402_FINISH = `${FINISH}
return x402_finish(KEYS[1], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]))
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
if x402_finish(KEYS[2], ARGV[5], '1', ARGV[6], now) == 0 then return { 0 } end
s.credits = s.credits + queries; s.dirty = true
save(s)
local v = view(s)
return { 1, unpack(v) }
`;
