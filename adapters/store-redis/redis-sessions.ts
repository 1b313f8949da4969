/**
 * The WalletSessions port on Redis, shared by every instance:
 *
 *   session:<sha256 of token>  "<generation>|<expiresAt>|<open or closed>|<wallet>", until it expires
 *   sessions:<wallet>          the wallet's generation; a revocation of all its sessions bumps it.
 *                              No TTL: were it to lapse, revoked sessions would count again.
 *   siwx:<nonce>               an issued sign-in nonce, until the challenge expires
 *   link:<identity>            hash: the wallet the identity last paid with, the wallet's
 *                              generation then, its expiry and the allowance (what was bought
 *                              through it, link-lua.ts), until the link expires; a link made
 *                              under an older generation of the wallet (its owner signed out
 *                              everywhere since) is void
 *
 * Reads and writes of one session are one script, so a revocation and a read never interleave.
 * A nonce is used by deleting it: DEL answers 1 to exactly one caller on any number of instances.
 */
import { Effect } from "effect";
import type { Redis } from "ioredis";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { type SessionLookup, WalletSessions } from "../../core/ports/wallet-sessions.ts";
import type { KeyLayout } from "./keys.ts";
import { LINK } from "./link-lua.ts";
import { luaScript, runCommand, runScript } from "./redis-client.ts";

/** KEYS = [session, generation], ARGV = [now, expiresAt, wallet]. */
const OPEN = luaScript(`
local generation = redis.call('GET', KEYS[2]) or '0'
local ttl = tonumber(ARGV[2]) - tonumber(ARGV[1])
if ttl <= 0 then return 0 end
redis.call('SET', KEYS[1], generation .. '|' .. ARGV[2] .. '|open|' .. ARGV[3], 'PX', ttl)
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
          [keys.session(tokenHash), keys.sessionGeneration(wallet)],
          [now, expiresAt, wallet],
        ),
      ),
    find: (tokenHash, now) =>
      Effect.flatMap(
        runScript(client, FIND, [keys.session(tokenHash)], [keys.sessionGeneration(""), now]),
        decodeFind,
      ),
    close: (tokenHash) => Effect.asVoid(runScript(client, CLOSE, [keys.session(tokenHash)], [])),
    closeAll: (wallet) => Effect.asVoid(runCommand(() => client.incr(keys.sessionGeneration(wallet)))),
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
    issueNonce: (nonce, expiresAt, now) =>
      Effect.asVoid(
        runCommand(() => client.set(keys.signInNonce(nonce), "1", "PX", Math.max(1, expiresAt - now))),
      ),
    useNonce: (nonce) =>
      Effect.map(
        runCommand(() => client.del(keys.signInNonce(nonce))),
        (deleted) => deleted === 1,
      ),
  });
