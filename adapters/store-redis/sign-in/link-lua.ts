/**
 * The payer link's allowance (core/payments/link-allowance.ts) in Lua: a spend through a link
 * reads and writes the link and the wallet's quota hash in one script, so no other client can
 * interleave between the allowance's check and the wallet's hold. Mirrors the core rule line for
 * line; the memory store runs the core functions themselves.
 *
 *   link:<identity>  hash, until the link expires (PEXPIRE to its expiresAt):
 *     w  the wallet        g  the wallet's session generation when linked
 *     e  expiresAt         a  allowance: questions bought through this identity, not yet spent
 *     h:<holdId>           an open hold through the link, its expiresAt (the wallet's twin hold)
 *
 * Scripts through a link get KEYS = [the wallet's quota hash, link, the wallet's generation key]
 * and ARGV = [now, 0, paidDailyCap, holdTtlMs, holdId, wallet]; the quota prelude reads KEYS[1].
 */
import { PRELUDE } from "../quota/quota-lua-prelude.ts";

/** Loads the link: nil when absent, expired, voided by a sign-out, or to another wallet. */
export const LINK_PRELUDE = `
local function bad_link() error('corrupt payer link') end
local function link_load(linkKey, generationKey, wallet)
  local raw = redis.call('HGETALL', linkKey)
  if #raw == 0 then return nil end
  local l = { holds = {}, count = 0, removed = {}, added = {} }
  for i = 1, #raw, 2 do
    local field, value = raw[i], raw[i + 1]
    if field == 'w' then l.w = value
    elseif field == 'g' or field == 'e' or field == 'a' then
      if #value > 15 or not string.find(value, '^%d+$') then bad_link() end
      l[field] = tonumber(value)
    elseif string.sub(field, 1, 2) == 'h:' then
      if #value > 15 or not string.find(value, '^%d+$') then bad_link() end
      local id, exp = string.sub(field, 3), tonumber(value)
      if exp > now then l.holds[id] = exp; l.count = l.count + 1
      else l.removed[#l.removed + 1] = id end
    else bad_link() end
  end
  if l.w == nil or l.g == nil or l.e == nil or l.a == nil then bad_link() end
  local generation = tonumber(redis.call('GET', generationKey) or '0')
  if l.e <= now or l.g ~= generation or l.w ~= wallet then return nil end
  return l
end

-- The allowance never exceeds the wallet's paid credits (held ones included).
local function link_clamp(l, s)
  if l and l.a > s.credits then l.a = s.credits end
end

local function link_save(linkKey, l)
  if not l then return end
  for _, id in ipairs(l.removed) do redis.call('HDEL', linkKey, 'h:' .. id) end
  for id, exp in pairs(l.added) do redis.call('HSET', linkKey, 'h:' .. id, int(exp)) end
  redis.call('HSET', linkKey, 'a', int(l.a))
end

-- The wallet's view with its paid questions capped by what the link leaves.
local function link_view(s, l)
  local v = view(s)
  local owned = 0
  if l then owned = math.max(0, math.min(l.a, s.credits) - l.count) end
  local paid = math.min(owned, v[5])
  local requires = 0
  if v[4] == 0 and owned == 0 then requires = 1 end
  return { v[4] + paid, v[2], requires, v[4], paid }
end
`;

/**
 * KEYS = [link, generation], ARGV = [now, expiresAt, wallet, queries]: the same live link to the
 * wallet grows its allowance and lasts to the later expiry; any other is replaced.
 */
export const LINK = `
local now = tonumber(ARGV[1])
local expiresAt = tonumber(ARGV[2])
local queries = tonumber(ARGV[4])
if not (now and expiresAt and queries) then error('bad arguments') end
local function int(x) return string.format('%d', x) end
${LINK_PRELUDE}
if expiresAt <= now then return 0 end
local l = link_load(KEYS[1], KEYS[2], ARGV[3])
if l then
  for _, id in ipairs(l.removed) do redis.call('HDEL', KEYS[1], 'h:' .. id) end
  l.a = l.a + queries
  l.e = math.max(l.e, expiresAt)
else
  redis.call('DEL', KEYS[1])
  l = { a = queries, e = expiresAt, g = tonumber(redis.call('GET', KEYS[2]) or '0') }
end
redis.call('HSET', KEYS[1], 'w', ARGV[3], 'g', int(l.g), 'e', int(l.e), 'a', int(l.a))
redis.call('PEXPIRE', KEYS[1], int(l.e - now))
return 1
`;

/** {0, bucket, day, expiresAt, ...view} | {1, resetAt} (QuotaExhausted) | {2, resetAt} (PaidDailyCapReached). */
export const RESERVE_THROUGH_LINK = `${PRELUDE}${LINK_PRELUDE}
local s = load()
local l = link_load(KEYS[2], KEYS[3], ARGV[6])
link_clamp(l, s)
local id = ARGV[5]
-- A refusal writes nothing of the link (as the core rule, which keeps no refused state).
if not l or l.a - l.count <= 0 then
  save(s)
  return { 1, (today + 1) * DAY }
end
local bucket, refused = pick_bucket(s)
if bucket == nil then
  save(s)
  return { refused, (today + 1) * DAY }
end
local h = { bucket = bucket, day = s.day, exp = now + holdTtl }
put(s, id, h)
l.holds[id] = h.exp; l.count = l.count + 1; l.added[id] = h.exp
save(s); link_save(KEYS[2], l)
local v = link_view(s, l)
return { 0, h.bucket, h.day, h.exp, v[1], v[2], v[3], v[4], v[5] }
`;

/** ARGV[7] = 'commit' or 'release': the view through the link after. Unknown holds change nothing. */
export const SETTLE_THROUGH_LINK = `${PRELUDE}${LINK_PRELUDE}
local s = load()
local l = link_load(KEYS[2], KEYS[3], ARGV[6])
local id = ARGV[5]
local commit = ARGV[7] == 'commit'
local h = take(s, id)
local spent = commit and h ~= nil
if spent then
  local sameDay = 0
  if h.day == s.day then sameDay = 1 end
  if h.bucket == 'f' then s.free = s.free + sameDay
  else s.credits = s.credits - 1; s.spent = s.spent + sameDay end
end
if l and l.holds[id] then
  l.holds[id] = nil; l.count = l.count - 1; l.removed[#l.removed + 1] = id
  if spent then l.a = math.max(0, l.a - 1) end
end
link_clamp(l, s)
save(s); link_save(KEYS[2], l)
return link_view(s, l)
`;

/** The view through the link; writes nothing. */
export const VIEW_THROUGH_LINK = `${PRELUDE}${LINK_PRELUDE}
local s = load()
local l = link_load(KEYS[2], KEYS[3], ARGV[6])
return link_view(s, l)
`;
