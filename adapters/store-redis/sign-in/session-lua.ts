/**
 * The session scripts of redis-sessions.ts. Every script that opens or closes a session keeps
 * the global eviction order (core/sign-in/session-ceilings.ts):
 *
 *   evictable-sessions  sorted set: session hashes of wallets without credits, and of sessions no
 *                       longer live, scored by a sequence (the highest score + 1 on each add), so
 *                       the order is the order they joined, as the memory store's Set; at most
 *                       the cap: past it the oldest are deleted, but a live session of a wallet
 *                       that holds credits only leaves the order
 *
 * Every key a script touches is passed as a key, so the scripts run on Redis Cluster (the
 * session keys of a service share one hash tag: keys.ts). Which keys a wallet's sessions or the
 * order's oldest members stand for is data (a hash, a wallet in a record), so the caller names
 * them and the script checks it named them all:
 *
 *   - OPEN and CLOSE_ALL take the session keys of the wallet's sessions it expects; when its set
 *     holds another, the script writes nothing and answers {'again', hashes...}, and the caller
 *     calls again naming those (a fresh wallet's first open: one call).
 *   - The cap is held by TRIM, run by the caller after any script that left the order over it:
 *     OPEN, CLOSE and CLOSE_ALL answer {'done', the oldest hashes past the cap...}; the caller
 *     reads their records (MGET) for their wallets and calls TRIM with each one's session,
 *     generation, wallet's sessions and wallet's quota keys. TRIM pops only the order's head
 *     when it is the hash named next and its record names the wallet named, so a session is
 *     never judged on another wallet's credits; anything else ends the call with the current
 *     oldest, and the caller reads again (bounded).
 *
 * So the per-wallet cap holds in the script that opens (however many instances open at once);
 * the order's cap holds once the TRIM after a script returns: between the two, concurrent opens
 * can leave it over by their own additions, and a caller that dies between them leaves it over
 * until the next open or close trims. The cap bounds memory; no money rule rests on it.
 *
 * Scripts get KEYS[1] = the eviction order and ARGV = [now, cap, closed ms, ...].
 */

const PRELUDE = `
local now = tonumber(ARGV[1])
local maxEvictable, closedMs = tonumber(ARGV[2]), tonumber(ARGV[3])
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
-- Closes a session (its key passed by the caller): it reads revoked for a day at most (record
-- and TTL), then joins the order's end.
local function retire(hash, key)
  local record = redis.call('GET', key)
  if not record then return end
  local g, e, _, wallet = parse(record)
  local until_ = math.min(e, now + closedMs)
  if until_ <= now then redis.call('DEL', key); redis.call('ZREM', evictable, hash); return end
  redis.call('SET', key, g .. '|' .. until_ .. '|closed|' .. wallet, 'PX', until_ - now)
  enqueue(hash)
end
-- The reply of a script that may have left the order over its cap: its oldest past the cap
-- (at most 64 a call), for the caller's TRIM.
local function done()
  local excess = math.min(redis.call('ZCARD', evictable) - maxEvictable, 64)
  if excess <= 0 then return { 'done' } end
  local reply = redis.call('ZRANGE', evictable, 0, excess - 1)
  table.insert(reply, 1, 'done')
  return reply
end
-- The declared session keys by hash (ARGV[first..] the hashes, KEYS from keyAt on), and the
-- members of the wallet's sessions the caller did not declare.
local function declared_keys(first, keyAt)
  local declared = {}
  for i = first, #ARGV do declared[ARGV[i]] = KEYS[keyAt + i - first] end
  return declared
end
local function undeclared(set, declared)
  local missing = { 'again' }
  for _, hash in ipairs(redis.call('ZRANGE', set, 0, -1)) do
    if not declared[hash] then table.insert(missing, hash) end
  end
  return missing
end
`;

/**
 * KEYS = [order, session, generation, wallet's sessions, wallet's quota, the session keys of
 * the declared members...], ARGV = [now, cap, closed ms, expiresAt, wallet, max sessions, this
 * session's hash, the declared members' hashes...]. Drops expired, closed and revoked members
 * of the wallet's sessions, closes the oldest while the wallet holds the max, opens this one
 * (evictable unless the wallet holds credits).
 */
export const OPEN = `${PRELUDE}
local declared = declared_keys(8, 6)
local missing = undeclared(KEYS[4], declared)
if #missing > 1 then return missing end
local generation = redis.call('GET', KEYS[3]) or '0'
local expiresAt = tonumber(ARGV[4])
if expiresAt <= now then return { 'done' } end
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
local function live(hash)
  local record = redis.call('GET', declared[hash])
  if not record then return false end
  local g, e, state = parse(record)
  return g == generation and state == 'open' and e > now
end
for _, hash in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  if not live(hash) then redis.call('ZREM', KEYS[4], hash) end
end
while redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[6]) do
  local oldest = redis.call('ZPOPMIN', KEYS[4])[1]
  if live(oldest) then retire(oldest, declared[oldest]) end
end
local hash = ARGV[7]
redis.call('SET', KEYS[2], generation .. '|' .. ARGV[4] .. '|open|' .. ARGV[5], 'PX', expiresAt - now)
redis.call('ZADD', KEYS[4], expiresAt, hash)
redis.call('PEXPIREAT', KEYS[4], expiresAt)
if not holds_credits(KEYS[5]) then enqueue(hash) end
return done()
`;

/** KEYS = [order, session], ARGV = [now, cap, closed ms, its hash]: signs it out (revoked for a day at most). */
export const CLOSE = `${PRELUDE}
retire(ARGV[4], KEYS[2])
return done()
`;

/**
 * KEYS = [order, generation, wallet's sessions, the session keys of the declared members...],
 * ARGV = [now, cap, closed ms, the declared members' hashes...]: revokes every session of the
 * wallet (each for a day at most).
 */
export const CLOSE_ALL = `${PRELUDE}
local declared = declared_keys(4, 4)
local missing = undeclared(KEYS[3], declared)
if #missing > 1 then return missing end
for _, hash in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do retire(hash, declared[hash]) end
redis.call('INCR', KEYS[2])
redis.call('DEL', KEYS[3])
return done()
`;

/**
 * KEYS = [order, then per candidate: its session, its wallet's generation, the wallet's
 * sessions, the wallet's quota], ARGV = [now, cap, closed ms, then per candidate: its hash, its
 * record's wallet ('' when the caller read no record)]. Pops the order's head while it is over
 * the cap and the head is the next candidate as named; deletes it unless it is a live session
 * of a wallet holding credits.
 */
export const TRIM = `${PRELUDE}
for i = 1, (#KEYS - 1) / 4 do
  if redis.call('ZCARD', evictable) <= maxEvictable then return { 'done' } end
  local hash, wallet, at = ARGV[2 + 2 * i], ARGV[3 + 2 * i], 1 + 4 * (i - 1)
  if redis.call('ZRANGE', evictable, 0, 0)[1] ~= hash then return done() end
  local record = redis.call('GET', KEYS[at + 1])
  if record then
    local g, e, state, named = parse(record)
    if named ~= wallet then return done() end
    redis.call('ZPOPMIN', evictable)
    local live = state == 'open' and e > now and (redis.call('GET', KEYS[at + 2]) or '0') == g
    if not (live and holds_credits(KEYS[at + 4])) then
      redis.call('DEL', KEYS[at + 1])
      redis.call('ZREM', KEYS[at + 3], hash)
    end
  else
    redis.call('ZPOPMIN', evictable)
  end
end
return done()
`;
