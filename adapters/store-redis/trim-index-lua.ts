/**
 * A Lua function for the scripts that keep a capped set of keys with an index beside them (a
 * sorted set of the keys, oldest lowest: the answer cache, the paid results): past the cap, the
 * oldest leave the index in the same script that added the newest, and the script answers their
 * names; the caller deletes them (`deleteDropped`). Their names are data read from the index,
 * so the script cannot declare them as keys: deleted inside it they would be keys a Redis
 * Cluster never routed. The index and its keys share a hash tag (keys.ts), so one DEL takes them
 * all. A caller that fails between the two leaves those keys to their own expiry.
 */
import type { StoreClient } from "./store-client.ts";

export const TRIM_INDEX = `
local function trim_index(index, cap)
  local excess = redis.call('ZCARD', index) - cap
  if excess <= 0 then return {} end
  local oldest = redis.call('ZRANGE', index, 0, excess - 1)
  redis.call('ZREMRANGEBYRANK', index, 0, excess - 1)
  return oldest
end
`;

/** Deletes the keys a trim dropped from its index (one command; nothing when none). */
export const deleteDropped = (client: StoreClient, dropped: unknown): Promise<unknown> => {
  const names = Array.isArray(dropped) ? dropped.filter((name) => typeof name === "string") : [];
  return names.length === 0 ? Promise.resolve(0) : client.del(...names);
};
