/**
 * What a session's key stands for at `now`, in Lua: the session lookup of redis-sessions.ts
 * (WalletSessions.find), kept apart because its reply is decoded here too. The record is
 * "<generation>|<expiresAt>|<open or closed>|<wallet>".
 *
 * Every key it touches is passed as a key: the wallet's generation key is named by the record,
 * so the caller passes the wallet it expects (a hint, `sessionHints`), and a record naming
 * another wallet answers {'wallet', <wallet>} having read nothing else: the caller calls again
 * with that wallet's keys. A session's wallet never changes, so a hint learned once is exact
 * for the session's life: only an instance's first lookup of a session asks twice.
 */
import type { SessionLookup } from "../../../core/ports/wallet-sessions.ts";

export const SESSION_LOOKUP = `
local function session_lookup(key, generationKey, hinted, now)
  local record = redis.call('GET', key)
  if not record then return { 'unknown' } end
  local generation, expiresAt, state, wallet = string.match(record, '^(%d+)|(%d+)|(%a+)|(.+)$')
  if generation == nil then error('corrupt session') end
  if tonumber(expiresAt) <= now then return { 'unknown' } end
  if state ~= 'open' then return { 'revoked' } end
  if wallet ~= hinted then return { 'wallet', wallet } end
  local current = redis.call('GET', generationKey) or '0'
  if current ~= generation then return { 'revoked' } end
  return { 'active', wallet, expiresAt }
end
`;

/** A session_lookup reply: a lookup, or the wallet to call again with; undefined when it is neither. */
export const sessionLookupOf = (
  reply: unknown,
): SessionLookup | { readonly kind: "wallet"; readonly wallet: string } | undefined => {
  if (!Array.isArray(reply)) return undefined;
  const [kind, wallet, expiresAt] = reply as unknown[];
  if (kind === "unknown" || kind === "revoked") return { kind };
  if (kind === "wallet" && typeof wallet === "string" && wallet !== "") return { kind, wallet };
  if (kind === "active" && typeof wallet === "string" && typeof expiresAt === "string")
    return { kind, wallet, expiresAt: Number(expiresAt) };
  return undefined;
};

/** Sessions whose wallet is remembered; past it every hint is dropped (a dropped hint costs one call). */
export const MAX_SESSION_HINTS = 4096;

/** The wallet each session (by token hash) was seen to name, bounded. */
export const sessionHints = () => {
  const hints = new Map<string, string>();
  return {
    get: (tokenHash: string): string | undefined => hints.get(tokenHash),
    remember: (tokenHash: string, wallet: string): void => {
      if (hints.size >= MAX_SESSION_HINTS) hints.clear();
      hints.set(tokenHash, wallet);
    },
  };
};
