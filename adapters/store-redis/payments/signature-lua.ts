/**
 * The used-signature ledger (core/payments/signature-ledger.ts) in Lua, one definition for the
 * claim of POST /api/payment (quota-lua.ts, the credits in the same script) and for MARK_USED
 * (no credits), so both refuse exactly the same signatures.
 *
 *   sig:<signature>  "usedAt|claimId|queries|identity", expiring after the signature memory.
 *
 * A record counts while now - usedAt < memory (isRemembered); an unreadable one always counts
 * (refusing a payment is recoverable, a double grant is not). A resend of the same claim (its
 * claim id, e.g. after a lost reply) is told apart from another claim, so it can be answered
 * as the success it was instead of "already used".
 */
export const SIGNATURE = `
-- 'free' (may be used at now), 'resent' (this very claim wrote it) or 'used'. No writes.
local function signature_state(key, now, memory, claimId)
  local record = redis.call('GET', key)
  if not record then return 'free' end
  local usedAt, id = string.match(record, '^(-?%d+)|([^|]*)|')
  if usedAt ~= nil and now - tonumber(usedAt) >= memory then return 'free' end
  if id == claimId then return 'resent' end
  return 'used'
end

local function signature_mark(key, now, memory, claimId, queries, identity)
  redis.call('SET', key,
    string.format('%d', now) .. '|' .. claimId .. '|' .. queries .. '|' .. identity,
    'PX', string.format('%d', memory))
end
`;

/**
 * KEYS = [sig:<signature>], ARGV = [now, signature memory ms, claim id, usedBy]: {0} once the
 * signature is marked used with no queries (or this very call already did), {1} when it is
 * used (AlreadyClaimed). One key and no quota state, so nothing outlives the signature's memory.
 */
export const MARK_USED = `${SIGNATURE}
local now = tonumber(ARGV[1])
local memory = tonumber(ARGV[2])
if not (now and memory) then error('bad arguments') end
local state = signature_state(KEYS[1], now, memory, ARGV[3])
if state == 'used' then return { 1 } end
if state == 'free' then signature_mark(KEYS[1], now, memory, ARGV[3], '0', ARGV[4]) end
return { 0 }
`;
