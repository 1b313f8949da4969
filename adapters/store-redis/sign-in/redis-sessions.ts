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
 *   evictable-sessions         sorted set: the global eviction order of sessions of wallets without
 *                              credits and of closed ones, capped (session-lua.ts); a closed
 *                              session's record lasts a day at most
 *   signins:<wallet>           the wallet's sign-ins in the current window (expires with it); the
 *                              creditless sign-ins of every site are the ceiling counter's
 *                              (core/use-cases/count-sign-in.ts)
 *   link:<identity>            hash: the wallet the identity last paid with, the wallet's
 *                              generation then, its expiry and the allowance (what was bought
 *                              through it, link-lua.ts), until the link expires; a link made
 *                              under an older generation of the wallet (its owner signed out
 *                              everywhere since) is void
 *
 * Reads and writes of one session are one script, so a revocation and a read never interleave.
 */
import * as Effect from "effect/Effect";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { WalletSessions } from "../../../core/ports/wallet-sessions.ts";
import { MAX_SIGN_INS_PER_WALLET, SIGN_IN_WINDOW_MS } from "../../../core/sign-in/session-ceilings.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import { type ReplicatedClaims, unreplicated } from "../replicated-claims.ts";
import type { StoreClient } from "../store-client.ts";
import { LINK } from "./link-lua.ts";
import { SESSION_LOOKUP, sessionHints, sessionLookupOf } from "./session-lookup-lua.ts";
import { sessionWrites } from "./session-writes.ts";

/**
 * KEYS = [sign-ins, wallet's sessions], ARGV = [max, window ms]: 1 counted, 0 over the limit
 * (nothing written). A wallet that holds no session record yet (a fresh keypair's first sign-in)
 * writes no counter of its own: fresh wallets cost nothing to make, so one counter per first
 * sign-in would be state a stranger multiplies; its first counter counts the session it already
 * holds too.
 */
const COUNT_SIGN_IN = luaScript(`
local count = tonumber(redis.call('GET', KEYS[1]) or '-1')
local counted = true
if count < 0 then
  if redis.call('EXISTS', KEYS[2]) == 0 then counted = false end
  count = 1
end
if counted and count >= tonumber(ARGV[1]) then return 0 end
if counted then
  redis.call('SET', KEYS[1], count + 1, 'KEEPTTL')
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
return 1
`);

const LINK_SCRIPT = luaScript(LINK);

/**
 * KEYS = [link, and with a hinted wallet: its generation], ARGV = [hinted wallet or '', now]:
 * the linked wallet, or false when there is no link, it expired, or its wallet signed out
 * everywhere since (a newer generation); {'wallet', wallet} when the link names another wallet
 * than the hint (call again with its generation key: the key is never built here).
 */
const LINKED = luaScript(`
local link = redis.call('HMGET', KEYS[1], 'w', 'g', 'e')
local wallet, generation, expiresAt = link[1], link[2], link[3]
if not (wallet and generation and expiresAt) or tonumber(expiresAt) <= tonumber(ARGV[2]) then return false end
if wallet ~= ARGV[1] then return { 'wallet', wallet } end
if (redis.call('GET', KEYS[2]) or '0') ~= generation then return false end
return wallet
`);

/**
 * KEYS = [session, and with a hinted wallet: its generation], ARGV = [hinted wallet or '', now]:
 * {'active', wallet, expiresAt} | {'revoked'} | {'unknown'} | {'wallet', wallet} (call again).
 */
const FIND = luaScript(`${SESSION_LOOKUP}
return session_lookup(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]))
`);

const unexpected = new StoreUnavailable({ reason: "unexpected reply to a session read" });

/** `maxEvictable`: the cap of the global eviction order (session-lua.ts). */
/** `replicated`: a client's allowance on a wallet's credits (link) waits for replicas; sessions do not. */
export const redisSessions = (
  client: StoreClient,
  keys: KeyLayout,
  maxEvictable: number,
  replicated: ReplicatedClaims = unreplicated(client),
) => {
  const writes = sessionWrites(client, keys, maxEvictable);
  const hints = sessionHints();
  // The wallet each identity was last seen linked to (the same bounded map, keyed by identity).
  const linkHints = sessionHints();
  const findOnce = (tokenHash: string, now: number, hint: string | undefined) =>
    runScript(
      client,
      FIND,
      hint === undefined
        ? [keys.session(tokenHash)]
        : [keys.session(tokenHash), keys.sessionGeneration(hint)],
      [hint ?? "", now],
    );
  return WalletSessions.of({
    open: (tokenHash, wallet, expiresAt, now) =>
      Effect.map(writes.open(tokenHash, wallet, expiresAt, now), () => hints.remember(tokenHash, wallet)),
    // One call once the session's wallet is known here (opened or found before), else two.
    find: Effect.fn("RedisSessions.find")(function* (tokenHash: string, now: number) {
      let hint = hints.get(tokenHash);
      for (let call = 0; call < 2; call++) {
        const lookup = sessionLookupOf(yield* findOnce(tokenHash, now, hint));
        if (lookup === undefined) return yield* Effect.fail(unexpected);
        if (lookup.kind !== "wallet") return lookup;
        hint = lookup.wallet;
        hints.remember(tokenHash, hint);
      }
      // A session's wallet never changes: a second redirect is a store that answers wrongly.
      return yield* Effect.fail(unexpected);
    }),
    close: (tokenHash, now) => writes.close(tokenHash, now),
    closeAll: (wallet, now) => writes.closeAll(wallet, now),
    link: (identity, wallet, queries, expiresAt, now) =>
      Effect.asVoid(
        replicated(() =>
          runScript(
            replicated.client,
            LINK_SCRIPT,
            [keys.payerLink(identity), keys.sessionGeneration(wallet)],
            [now, expiresAt, wallet, queries],
          ),
        ),
      ),
    // One round trip once the link's wallet is known here, else two (the generation's key is
    // named by the link's wallet).
    linked: Effect.fn("RedisSessions.linked")(function* (identity: string, now: number) {
      let hint = linkHints.get(identity);
      for (let call = 0; call < 3; call++) {
        const reply = yield* runScript(
          client,
          LINKED,
          hint === undefined
            ? [keys.payerLink(identity)]
            : [keys.payerLink(identity), keys.sessionGeneration(hint)],
          [hint ?? "", now],
        );
        if (!Array.isArray(reply)) return typeof reply === "string" ? reply : undefined;
        if (reply[0] !== "wallet" || typeof reply[1] !== "string") return yield* Effect.fail(unexpected);
        hint = reply[1];
        linkHints.remember(identity, hint);
      }
      return yield* Effect.fail(
        new StoreUnavailable({ reason: "the payer link kept changing during a read" }),
      );
    }),
    // SET NX answers OK to exactly one caller on any number of instances.
    // A used nonce's key lives exactly until its challenge expires (useNonce's PX).
    nonceUsed: (nonce) =>
      Effect.map(
        runCommand(() => client.exists(keys.signInNonce(nonce))),
        (found) => found === 1,
      ),
    useNonce: (nonce, expiresAt, now) =>
      expiresAt <= now
        ? Effect.succeed(false)
        : Effect.map(
            runCommand(() => client.set(keys.signInNonce(nonce), "1", "PX", expiresAt - now, "NX")),
            (reply) => reply === "OK",
          ),
    countSignIn: (wallet, _now) =>
      Effect.map(
        runScript(
          client,
          COUNT_SIGN_IN,
          [keys.signIns(wallet), keys.walletSessions(wallet)],
          [MAX_SIGN_INS_PER_WALLET, SIGN_IN_WINDOW_MS],
        ),
        (counted) => counted === 1,
      ),
  });
};
