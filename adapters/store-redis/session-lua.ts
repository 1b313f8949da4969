/**
 * The session scripts of redis-sessions.ts. Every script that opens or closes a session keeps
 * the global eviction order (core/sign-in/session-ceilings.ts) in the same step:
 *
 *   evictable-sessions  sorted set: session hashes of wallets without credits, and of sessions no
 *                       longer live, scored by a sequence (the highest score + 1 on each add), so
 *                       the order is the order they joined, as the memory store's Set; at most
 *                       the cap: each script that adds trims it, deleting the oldest, but only
 *                       dropping from the order a live session of a wallet that holds credits
 *
 * Scripts get KEYS[1] = the eviction order and ARGV = [now, session key prefix, generation key
 * prefix, wallet quota key prefix, wallet's sessions key prefix, cap, closed ms, ...]. The
 * records, generations and quota hashes of the sessions met in the order are reached by prefix:
 * which wallet they belong to is known only inside the script (one Redis, not a cluster).
 */

const PRELUDE = `
local now = tonumber(ARGV[1])
local sessionPrefix, generationPrefix, quotaPrefix, walletPrefix = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local maxEvictable, closedMs = tonumber(ARGV[6]), tonumber(ARGV[7])
local evictable = KEYS[1]
local function parse(record)
  local g, e, state, wallet = string.match(record, '^(%d+)|(%d+)|(%a+)|(.+)$')
  if g == nil then error('corrupt session') end
  return g, tonumber(e), state, wallet
end
local function holds_credits(quotaKey)
  return tonumber(redis.call('HGET', quotaKey, 'credits') or '0') > 0
end
local function enqueue(hash)
  local top = redis.call('ZRANGE', evictable, -1, -1, 'WITHSCORES')
  local score = 1
  if top[2] then score = tonumber(top[2]) + 1 end
  redis.call('ZADD', evictable, score, hash)
end
-- Closes a session: it reads revoked for a day at most (record and TTL), then joins the order's end.
local function retire(hash)
  local key = sessionPrefix .. hash
  local record = redis.call('GET', key)
  if not record then return end
  local g, e, _, wallet = parse(record)
  local until_ = math.min(e, now + closedMs)
  if until_ <= now then redis.call('DEL', key); redis.call('ZREM', evictable, hash); return end
  redis.call('SET', key, g .. '|' .. until_ .. '|closed|' .. wallet, 'PX', until_ - now)
  enqueue(hash)
end
local function trim()
  while redis.call('ZCARD', evictable) > maxEvictable do
    local oldest = redis.call('ZPOPMIN', evictable)[1]
    local record = redis.call('GET', sessionPrefix .. oldest)
    if record then
      local g, e, state, wallet = parse(record)
      local live = state == 'open' and e > now and (redis.call('GET', generationPrefix .. wallet) or '0') == g
      if not (live and holds_credits(quotaPrefix .. wallet)) then
        redis.call('DEL', sessionPrefix .. oldest)
        redis.call('ZREM', walletPrefix .. wallet, oldest)
      end
    end
  end
end
`;

/**
 * KEYS = [order, session, generation, wallet's sessions, wallet's quota], ARGV = [..., expiresAt,
 * wallet, max sessions]. Drops expired, closed and revoked members of the wallet's sessions,
 * closes the oldest while the wallet holds the max, opens this one (evictable unless the wallet
 * holds credits) and trims the order: both caps hold however many instances open at once.
 */
export const OPEN = `${PRELUDE}
local generation = redis.call('GET', KEYS[3]) or '0'
local expiresAt = tonumber(ARGV[8])
if expiresAt <= now then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
local function live(hash)
  local record = redis.call('GET', sessionPrefix .. hash)
  if not record then return false end
  local g, e, state = parse(record)
  return g == generation and state == 'open' and e > now
end
for _, hash in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  if not live(hash) then redis.call('ZREM', KEYS[4], hash) end
end
while redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[10]) do
  local oldest = redis.call('ZPOPMIN', KEYS[4])[1]
  if live(oldest) then retire(oldest) end
end
local hash = string.sub(KEYS[2], string.len(sessionPrefix) + 1)
redis.call('SET', KEYS[2], generation .. '|' .. ARGV[8] .. '|open|' .. ARGV[9], 'PX', expiresAt - now)
redis.call('ZADD', KEYS[4], expiresAt, hash)
redis.call('PEXPIREAT', KEYS[4], expiresAt)
if not holds_credits(KEYS[5]) then enqueue(hash) end
trim()
return 1
`;

/** KEYS = [order, session]: signs it out (revoked for a day at most). */
export const CLOSE = `${PRELUDE}
retire(string.sub(KEYS[2], string.len(sessionPrefix) + 1))
trim()
return 1
`;

/** KEYS = [order, generation, wallet's sessions]: revokes every session of the wallet (each for a day at most). */
export const CLOSE_ALL = `${PRELUDE}
for _, hash in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do retire(hash) end
redis.call('INCR', KEYS[2])
redis.call('DEL', KEYS[3])
trim()
return 1
`;
