/**
 * A Lua function for the scripts that keep a capped set of keys with an index beside them (a
 * sorted set of the keys, oldest lowest: the answer cache, the paid results): past the cap, the
 * oldest leave the index and their keys are deleted, in the same script that added the newest.
 */
export const TRIM_INDEX = `
local function trim_index(index, cap)
  local excess = redis.call('ZCARD', index) - cap
  if excess > 0 then
    local oldest = redis.call('ZRANGE', index, 0, excess - 1)
    redis.call('ZREMRANGEBYRANK', index, 0, excess - 1)
    redis.call('DEL', unpack(oldest))
  end
end
`;
