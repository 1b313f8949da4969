/**
 * referenceFor in Lua. KEYS = [ref:id:<identity>, ref:of:<candidate>],
 * ARGV = [candidate, identity, ttlMs, owner-key prefix]. Returns the identity's reference
 * (refreshing both keys' TTL), or stores the candidate when the identity has none, or returns
 * false when the candidate already belongs to someone else (the caller draws a new one).
 * The refresh touches the owner key of an existing reference by name, so this script needs
 * a single Redis node (or primary), not Redis Cluster.
 */
export const REFERENCE = `
local ttl = ARGV[3]
local ref = redis.call('GET', KEYS[1])
if ref then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('SET', ARGV[4] .. ref, ARGV[2], 'PX', ttl)
  return ref
end
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ttl) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
  return ARGV[1]
end
return false
`;
