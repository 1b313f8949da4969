/**
 * The WalletSessions port on Redis, shared by every instance:
 *
 *   session:<sha256 of token>  "<generation>|<expiresAt>|<open or closed>|<wallet>", until it expires
 *   sessions:<wallet>          the wallet's generation; a revocation of all its sessions bumps it.
 *                              No TTL: were it to lapse, revoked sessions would count again.
 *   siwx:<nonce>               a used sign-in nonce (written by a sign-in that succeeded), until
 *                              its challenge expires; issuing a challenge writes nothing
 *   wsessions:<wallet>         sorted set: the wallet's live session hashes by expiry; opening one
 *                              past MAX_SESSIONS_PER_WALLET closes the oldest in the same script
 *   signins:<wallet>           the wallet's sign-ins in the current window (expires with it)
 *   link:<identity>            hash: the wallet the identity last paid with, the wallet's
 *                              generation then, its expiry and the allowance (what was bought
 *                              through it, link-lua.ts), until the link expires; a link made
 *                              under an older generation of the wallet (its owner signed out
 *                              everywhere since) is void
 *
 * Reads and writes of one session are one script, so a revocation and a read never interleave.
 */
import { Effect } from "effect";
import type { Redis } from "ioredis";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { type SessionLookup, WalletSessions } from "../../core/ports/wallet-sessions.ts";
import {
  MAX_SESSIONS_PER_WALLET,
  MAX_SIGN_INS_PER_WALLET,
  SIGN_IN_WINDOW_MS,
} from "../../core/sign-in/session-ceilings.ts";
import type { KeyLayout } from "./keys.ts";
import { LINK } from "./link-lua.ts";
import { luaScript, runCommand, runScript } from "./redis-client.ts";

/**
 * KEYS = [session, generation, wallet's sessions], ARGV = [now, expiresAt, wallet, session key
 * prefix, max sessions]. Drops expired, closed and revoked members, closes the oldest while the
 * wallet holds the max, then opens this one: the cap holds however many instances open at once.
 */
const OPEN = luaScript(`
local generation = redis.call('GET', KEYS[2]) or '0'
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2]) - now
if ttl <= 0 then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local function live(hash)
  local record = redis.call('GET', ARGV[4] .. hash)
  if not record then return nil end
  local g, e, state = string.match(record, '^(%d+)|(%d+)|(%a+)|')
  if g ~= generation or state ~= 'open' or tonumber(e) <= now then return nil end
  return record
end
for _, hash in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  if live(hash) == nil then redis.call('ZREM', KEYS[3], hash) end
end
while redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) do
  local oldest = redis.call('ZPOPMIN', KEYS[3])[1]
  local record = live(oldest)
  if record then
    redis.call('SET', ARGV[4] .. oldest, string.gsub(record, '|open|', '|closed|', 1), 'KEEPTTL')
  end
end
redis.call('SET', KEYS[1], generation .. '|' .. ARGV[2] .. '|open|' .. ARGV[3], 'PX', ttl)
redis.call('ZADD', KEYS[3], ARGV[2], string.sub(KEYS[1], string.len(ARGV[4]) + 1))
redis.call('PEXPIREAT', KEYS[3], ARGV[2])
return 1
`);

/** KEYS = [sign-ins], ARGV = [max, window ms]: 1 counted, 0 over the limit (not counted). */
const COUNT_SIGN_IN = luaScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return 0 end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`);

const LINK_SCRIPT = luaScript(LINK);

/** KEYS = [session], ARGV = [generation key prefix, now]: {'active', wallet, expiresAt} | {'revoked'} | {'unknown'}. */
const FIND = luaScript(`
local record = redis.call('GET', KEYS[1])
if not record then return { 'unknown' } end
local generation, expiresAt, state, wallet = string.match(record, '^(%d+)|(%d+)|(%a+)|(.+)$')
if generation == nil then error('corrupt session') end
if tonumber(expiresAt) <= tonumber(ARGV[2]) then return { 'unknown' } end
local current = redis.call('GET', ARGV[1] .. wallet) or '0'
if state ~= 'open' or current ~= generation then return { 'revoked' } end
return { 'active', wallet, expiresAt }
`);

/** KEYS = [session]: marks it closed, keeping its TTL. */
const CLOSE = luaScript(`
local record = redis.call('GET', KEYS[1])
if not record then return 0 end
local closed = string.gsub(record, '|open|', '|closed|', 1)
redis.call('SET', KEYS[1], closed, 'KEEPTTL')
return 1
`);

const decodeFind = (reply: unknown): Effect.Effect<SessionLookup, StoreUnavailable> => {
  if (Array.isArray(reply)) {
    const [kind, wallet, expiresAt] = reply as unknown[];
    if (kind === "unknown" || kind === "revoked") return Effect.succeed({ kind });
    if (kind === "active" && typeof wallet === "string" && typeof expiresAt === "string")
      return Effect.succeed({ kind, wallet, expiresAt: Number(expiresAt) });
  }
  return Effect.fail(new StoreUnavailable({ reason: "unexpected reply to a session read" }));
};

export const redisSessions = (client: Redis, keys: KeyLayout) =>
  WalletSessions.of({
    open: (tokenHash, wallet, expiresAt, now) =>
      Effect.asVoid(
        runScript(
          client,
          OPEN,
          [keys.session(tokenHash), keys.sessionGeneration(wallet), keys.walletSessions(wallet)],
          [now, expiresAt, wallet, keys.session(""), MAX_SESSIONS_PER_WALLET],
        ),
      ),
    find: (tokenHash, now) =>
      Effect.flatMap(
        runScript(client, FIND, [keys.session(tokenHash)], [keys.sessionGeneration(""), now]),
        decodeFind,
      ),
    close: (tokenHash) => Effect.asVoid(runScript(client, CLOSE, [keys.session(tokenHash)], [])),
    closeAll: (wallet) =>
      Effect.asVoid(
        runCommand(() =>
          client.multi().incr(keys.sessionGeneration(wallet)).del(keys.walletSessions(wallet)).exec(),
        ),
      ),
    link: (identity, wallet, queries, expiresAt, now) =>
      Effect.asVoid(
        runScript(
          client,
          LINK_SCRIPT,
          [keys.payerLink(identity), keys.sessionGeneration(wallet)],
          [now, expiresAt, wallet, queries],
        ),
      ),
    // Two reads, not one script: the generation's key is named by the record (a script must
    // declare its keys), and a revocation racing this read is as good as one just after it.
    linked: (identity, now) =>
      Effect.flatMap(
        runCommand(() => client.hmget(keys.payerLink(identity), "w", "g", "e")),
        ([wallet, generation, expiresAt]) => {
          if (wallet == null || generation == null || expiresAt == null || Number(expiresAt) <= now)
            return Effect.succeed(undefined);
          return Effect.map(
            runCommand(() => client.get(keys.sessionGeneration(wallet))),
            (current) => ((current ?? "0") === generation ? wallet : undefined),
          );
        },
      ),
    // SET NX answers OK to exactly one caller on any number of instances.
    useNonce: (nonce, expiresAt, now) =>
      expiresAt <= now
        ? Effect.succeed(false)
        : Effect.map(
            runCommand(() => client.set(keys.signInNonce(nonce), "1", "PX", expiresAt - now, "NX")),
            (reply) => reply === "OK",
          ),
    countSignIn: (wallet) =>
      Effect.map(
        runScript(
          client,
          COUNT_SIGN_IN,
          [keys.signIns(wallet)],
          [MAX_SIGN_INS_PER_WALLET, SIGN_IN_WINDOW_MS],
        ),
        (counted) => counted === 1,
      ),
  });
