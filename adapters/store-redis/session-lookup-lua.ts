/**
 * What a session's key stands for at `now`, in Lua: the session lookup of redis-sessions.ts
 * (WalletSessions.find) and of the status read (spender-read.ts) share it, so both read a
 * session alike. The record is "<generation>|<expiresAt>|<open or closed>|<wallet>"; the
 * wallet's generation key is named by the record, so it is reached by prefix (not knowable
 * before the call; one Redis, not a cluster).
 */
import type { SessionLookup } from "../../core/ports/wallet-sessions.ts";

export const SESSION_LOOKUP = `
local function session_lookup(key, generationPrefix, now)
  local record = redis.call('GET', key)
  if not record then return { 'unknown' } end
  local generation, expiresAt, state, wallet = string.match(record, '^(%d+)|(%d+)|(%a+)|(.+)$')
  if generation == nil then error('corrupt session') end
  if tonumber(expiresAt) <= now then return { 'unknown' } end
  local current = redis.call('GET', generationPrefix .. wallet) or '0'
  if state ~= 'open' or current ~= generation then return { 'revoked' } end
  return { 'active', wallet, expiresAt }
end
`;

/** A session_lookup reply, or undefined when it is not one. */
export const sessionLookupOf = (reply: unknown): SessionLookup | undefined => {
  if (!Array.isArray(reply)) return undefined;
  const [kind, wallet, expiresAt] = reply as unknown[];
  if (kind === "unknown" || kind === "revoked") return { kind };
  if (kind === "active" && typeof wallet === "string" && typeof expiresAt === "string")
    return { kind, wallet, expiresAt: Number(expiresAt) };
  return undefined;
};
