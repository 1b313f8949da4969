/**
 * The shared part of the quota scripts (quota-lua.ts): arguments, load + normalize, the
 * availability rule, the view and the write-back with TTLs. Mirrors core/quota.ts line for line.
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
local function num(x)
  local n = tonumber(x)
  if n == nil then error('corrupt quota state') end
  return n
end

-- Reads the identity's state and normalizes it: lapsed holds out, day counters rolled over.
-- Every script calls it before its first write, so a corrupt state fails the script cleanly.
local function load()
  local s = { day = today, free = 0, spent = 0, credits = 0, holds = {}, added = {}, removed = {},
              dayDirty = false, creditsDirty = false, holdsDirty = false }
  local d = redis.call('HMGET', KEYS[1], 'day', 'free', 'spent')
  if d[1] then s.day = num(d[1]); s.free = num(d[2] or 0); s.spent = num(d[3] or 0) end
  s.credits = num(redis.call('GET', KEYS[2]) or 0)
  local raw = redis.call('HGETALL', KEYS[3])
  for i = 1, #raw, 2 do
    local bucket, day, exp = string.match(raw[i + 1], '^([fp])|(-?%d+)|(-?%d+)$')
    if bucket == nil then error('corrupt quota state') end
    if num(exp) > now then
      s.holds[raw[i]] = { bucket = bucket, day = num(day), exp = num(exp) }
    else
      s.removed[#s.removed + 1] = raw[i]; s.holdsDirty = true
    end
  end
  if today > s.day then s.day = today; s.free = 0; s.spent = 0; s.dayDirty = true end
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
  local free = math.max(0, freePerDay - s.free - freeHeld)
  local paidOwned = math.max(0, s.credits - paidHeld)
  local capLeft = math.max(0, cap - s.spent - paidHeldToday)
  return free, paidOwned, math.min(paidOwned, capLeft)
end

-- {remaining, resetAt, requiresPayment}
local function view(s)
  local free, paidOwned, paidToday = availability(s)
  local requires = 0
  if free == 0 and paidOwned == 0 then requires = 1 end
  return { free + paidToday, (today + 1) * DAY, requires }
end

-- Writes back only what changed, with the TTLs of the key layout above.
local function save(s)
  if s.dayDirty then
    if s.free == 0 and s.spent == 0 then
      redis.call('DEL', KEYS[1])
    else
      redis.call('HSET', KEYS[1], 'day', int(s.day), 'free', int(s.free), 'spent', int(s.spent))
      redis.call('PEXPIRE', KEYS[1], int((s.day + 1) * DAY - now + MARGIN))
    end
  end
  if s.creditsDirty then
    if s.credits > 0 then redis.call('SET', KEYS[2], int(s.credits)) else redis.call('DEL', KEYS[2]) end
  end
  if s.holdsDirty then
    -- One HDEL per hold: unpack() of thousands of ids would overflow Lua's C stack.
    for _, id in ipairs(s.removed) do redis.call('HDEL', KEYS[3], id) end
    for id, h in pairs(s.added) do
      redis.call('HSET', KEYS[3], id, h.bucket .. '|' .. int(h.day) .. '|' .. int(h.exp))
    end
    local last = nil
    for _, h in pairs(s.holds) do if last == nil or h.exp > last then last = h.exp end end
    if last ~= nil then redis.call('PEXPIRE', KEYS[3], int(last - now + MARGIN)) end
  end
end

-- Takes a hold out of the state (commit and release); nil when it is unknown or lapsed.
local function take(s, id)
  local h = s.holds[id]
  if h then s.holds[id] = nil; s.removed[#s.removed + 1] = id; s.holdsDirty = true end
  return h
end
`;
