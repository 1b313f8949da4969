/**
 * The shared part of the quota scripts (quota-lua.ts): arguments, load + normalize, the
 * availability rule, the view and the write-back with the TTL rule. Mirrors core/quota.ts
 * line for line; the hash is decoded by the same strict rules as quota-hash.ts (the view's
 * decoder in JS), so a state one of them refuses the other refuses too.
 */
export const PRELUDE = `
local DAY = 86400000
local MARGIN = 3600000
local now = tonumber(ARGV[1])
local freePerDay = tonumber(ARGV[2])
local cap = tonumber(ARGV[3])
local holdTtl = tonumber(ARGV[4])
if not (now and freePerDay and cap and holdTtl) then error('bad arguments') end
local today = math.floor(now / DAY)

local function int(x) return string.format('%d', x) end

-- A value we did not write: stop before any write (a script error does not undo writes).
local function corrupt() error('corrupt quota state') end
local function num(x)
  local n = tonumber(x)
  if n == nil then corrupt() end
  return n
end
-- A stored number: a non-negative integer of at most 15 digits, exactly as quota-hash.ts reads it.
local function nat(x)
  if #x > 15 or not string.find(x, '^%d+$') then corrupt() end
  return tonumber(x)
end

-- Reads the identity's hash and normalizes it: lapsed holds out, day counters rolled over.
-- Every script calls it before its first write, so a corrupt state fails the script cleanly.
-- The hash is KEYS[1] under ARGV's freePerDay unless a script holding two (payer-hold-lua.ts)
-- names another key and its free questions.
local function load(key, freeLimit)
  local s = { day = today, free = 0, spent = 0, credits = 0, holds = {}, count = 0,
              added = {}, removed = {}, dirty = false,
              key = key or KEYS[1], freePerDay = freeLimit or freePerDay }
  local raw = redis.call('HGETALL', s.key)
  if #raw == 0 then return s end
  local seen = 0
  for i = 1, #raw, 2 do
    local field, value = raw[i], raw[i + 1]
    if field == 'day' or field == 'free' or field == 'spent' or field == 'credits' then
      s[field] = nat(value); seen = seen + 1
    elseif string.sub(field, 1, 2) == 'h:' then
      local bucket, day, exp = string.match(value, '^([fp])|(%d+)|(%d+)$')
      if bucket == nil then corrupt() end
      local id = string.sub(field, 3)
      if nat(exp) > now then
        s.holds[id] = { bucket = bucket, day = nat(day), exp = nat(exp) }; s.count = s.count + 1
      else
        nat(day); s.removed[#s.removed + 1] = id; s.dirty = true
      end
    else
      corrupt()
    end
  end
  if seen ~= 4 then corrupt() end
  if today > s.day then s.day = today; s.free = 0; s.spent = 0; s.dirty = true end
  return s
end

-- free left today, paid credits not held, paid spendable today under the cap
local function availability(s)
  local freeHeld, paidHeld, paidHeldToday = 0, 0, 0
  for _, h in pairs(s.holds) do
    if h.bucket == 'f' then
      if h.day == s.day then freeHeld = freeHeld + 1 end
    else
      paidHeld = paidHeld + 1
      if h.day == s.day then paidHeldToday = paidHeldToday + 1 end
    end
  end
  local free = math.max(0, s.freePerDay - s.free - freeHeld)
  local paidOwned = math.max(0, s.credits - paidHeld)
  local capLeft = math.max(0, cap - s.spent - paidHeldToday)
  return free, paidOwned, math.min(paidOwned, capLeft)
end

-- The bucket a new hold takes (free first, then paid within today's cap), or nil and why not:
-- 2 when paid credits are left but today's cap is reached, 1 when nothing is left.
local function pick_bucket(s)
  local free, paidOwned, paidToday = availability(s)
  if free > 0 then return 'f', 0 end
  if paidToday > 0 then return 'p', 0 end
  if paidOwned > 0 then return nil, 2 end
  return nil, 1
end

-- {remaining, resetAt, requiresPayment, free, paid}
local function view(s)
  local free, paidOwned, paidToday = availability(s)
  local requires = 0
  if free == 0 and paidOwned == 0 then requires = 1 end
  return { free + paidToday, (today + 1) * DAY, requires, free, paidToday }
end

-- Writes back what changed, then applies the TTL rule of the key layout (keys.ts).
local function save(s)
  if not s.dirty then return end
  if s.credits == 0 and s.free == 0 and s.spent == 0 and s.count == 0 then
    redis.call('DEL', s.key)
    return
  end
  -- One HDEL per hold: unpack() of thousands of ids would overflow Lua's C stack.
  for _, id in ipairs(s.removed) do redis.call('HDEL', s.key, 'h:' .. id) end
  for id, h in pairs(s.added) do
    redis.call('HSET', s.key, 'h:' .. id, h.bucket .. '|' .. int(h.day) .. '|' .. int(h.exp))
  end
  redis.call('HSET', s.key, 'day', int(s.day), 'free', int(s.free), 'spent', int(s.spent),
    'credits', int(s.credits))
  if s.credits > 0 then
    redis.call('PERSIST', s.key)
  else
    redis.call('PEXPIRE', s.key, int((s.day + 1) * DAY - now + MARGIN))
  end
end

-- Takes a hold out of the state (commit and release); nil when it is unknown or lapsed.
local function take(s, id)
  local h = s.holds[id]
  if h then
    s.holds[id] = nil; s.count = s.count - 1; s.removed[#s.removed + 1] = id; s.dirty = true
  end
  return h
end

-- Adds a hold (reserve).
local function put(s, id, h)
  s.holds[id] = h; s.count = s.count + 1; s.added[id] = h; s.dirty = true
end
`;
