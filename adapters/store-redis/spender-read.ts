/**
 * The reads behind QuickReads on Redis: one script call per GET /api/status, with a session
 * or without. Before them the route asked for the payer link (HMGET, then GET of the wallet's
 * generation), then the identity's quota (HGETALL), then the wallet through the link (a
 * script): up to four round trips where one does; with a session, three.
 *
 * The script only reads (no rule in Lua); the view is computed in JS by the same core functions
 * the memory store runs (core/quota.ts, core/payments/link-allowance.ts), so the two stores
 * cannot drift on it. With a session every key is passed: the session's wallet is hinted and
 * checked inside (session-lookup-lua.ts; only an instance's first read of a session asks
 * twice). Without one, the wallet's generation and quota hash are named by the link's wallet,
 * known only inside the script, so they are still reached by prefix (one Redis, not a cluster).
 */
import type { Redis } from "ioredis";
import { liveLink, viewThroughLink } from "../../core/payments/link-allowance.ts";
import { combinedView, walletAccount, walletLimits } from "../../core/payments/wallet-credits.ts";
import type { SessionView } from "../../core/ports/quick-reads.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import * as Quota from "../../core/quota.ts";
import type { KeyLayout } from "./keys.ts";
import { decodeLinkHash, pairsToRecord } from "./link-hash.ts";
import { decodeQuotaHash } from "./quota-hash.ts";
import { evalScript, luaScript, unavailable } from "./redis-client.ts";
import { SESSION_LOOKUP, sessionHints, sessionLookupOf } from "./session-lookup-lua.ts";

/**
 * KEYS = [identity's quota, identity's link], ARGV = [generation key prefix, quota key prefix
 * of wallets]: {quota pairs} without a link, else {quota pairs, link pairs, the wallet's
 * generation, the wallet's quota pairs}.
 */
const SPENDER_READ = luaScript(`
local own = redis.call('HGETALL', KEYS[1])
local wallet = redis.call('HGET', KEYS[2], 'w')
if not wallet then return { own } end
return { own, redis.call('HGETALL', KEYS[2]), redis.call('GET', ARGV[1] .. wallet) or '0',
  redis.call('HGETALL', ARGV[2] .. wallet) }
`);

/**
 * KEYS = [session, identity's quota, and with a hinted wallet: its generation, its quota],
 * ARGV = [hinted wallet or '', now]: {quota pairs, ...the session's lookup, and the wallet's
 * quota pairs when it is active}; a session of another wallet: {quota pairs, {'wallet', it}}
 * (session-lookup-lua.ts: call again with its keys).
 */
const SESSION_READ = luaScript(`${SESSION_LOOKUP}
local own = redis.call('HGETALL', KEYS[2])
local found = session_lookup(KEYS[1], KEYS[3], ARGV[1], tonumber(ARGV[2]))
if found[1] ~= 'active' then return { own, found } end
return { own, found, redis.call('HGETALL', KEYS[4]) }
`);

const corrupt = (what: string) => new StoreUnavailable({ reason: `corrupt ${what}` });

/** What a client may spend at `now`: without a session through its payer link, else its session's wallet. */
export const spenderRead = (client: Redis, keys: KeyLayout, limits: Quota.QuotaLimits) => {
  const rules = walletLimits(limits);
  const args = [keys.sessionGeneration(""), keys.quota(walletAccount(""))];
  const decode = (reply: unknown, now: number): Quota.QuotaView | StoreUnavailable => {
    if (!Array.isArray(reply) || !Array.isArray(reply[0])) return corrupt("spender read");
    const ownHash = pairsToRecord(reply[0]);
    const own = ownHash === undefined ? undefined : decodeQuotaHash(ownHash, now);
    if (own === undefined) return corrupt("quota state");
    const client = Quota.view(own, now, limits);
    if (reply.length === 1) return client;
    const [, linkPairs, generation, walletPairs] = reply as [unknown, unknown, unknown, unknown];
    const link = Array.isArray(linkPairs) ? decodeLinkHash(linkPairs) : undefined;
    if (link === undefined || typeof generation !== "string") return corrupt("payer link");
    const live = link === null ? undefined : liveLink(link, Number(generation), now);
    if (live === undefined) return client;
    const walletHash = Array.isArray(walletPairs) ? pairsToRecord(walletPairs) : undefined;
    const wallet = walletHash === undefined ? undefined : decodeQuotaHash(walletHash, now);
    if (wallet === undefined) return corrupt("quota state");
    return combinedView(client, viewThroughLink(live, wallet, now, rules));
  };
  const stateOf = (pairs: unknown, now: number) => {
    const hash = Array.isArray(pairs) ? pairsToRecord(pairs) : undefined;
    return hash === undefined ? undefined : decodeQuotaHash(hash, now);
  };
  const hints = sessionHints();
  const decodeSession = (
    reply: unknown,
    now: number,
  ): SessionView | { readonly kind: "wallet"; readonly wallet: string } | StoreUnavailable => {
    if (!Array.isArray(reply)) return corrupt("session read");
    const [ownPairs, found, walletPairs] = reply as [unknown, unknown, unknown];
    const lookup = sessionLookupOf(found);
    if (lookup === undefined) return corrupt("session");
    if (lookup.kind !== "active") return lookup;
    const own = stateOf(ownPairs, now);
    const wallet = stateOf(walletPairs, now);
    if (own === undefined || wallet === undefined) return corrupt("quota state");
    const view = combinedView(Quota.view(own, now, limits), Quota.view(wallet, now, rules));
    return { kind: "active", wallet: lookup.wallet, view };
  };
  const readSession = (identity: string, tokenHash: string, now: number, hint: string | undefined) =>
    evalScript(
      client,
      SESSION_READ,
      [
        keys.session(tokenHash),
        keys.quota(identity),
        ...(hint === undefined ? [] : [keys.sessionGeneration(hint), keys.quota(walletAccount(hint))]),
      ],
      [hint ?? "", now],
    ).then((reply) => decodeSession(reply, now), unavailable);
  return {
    spender: (identity: string, now: number): Promise<Quota.QuotaView | StoreUnavailable> =>
      evalScript(client, SPENDER_READ, [keys.quota(identity), keys.payerLink(identity)], args).then(
        (reply) => decode(reply, now),
        unavailable,
      ),
    session: (identity: string, tokenHash: string, now: number): Promise<SessionView | StoreUnavailable> =>
      readSession(identity, tokenHash, now, hints.get(tokenHash)).then((read) => {
        if (read instanceof StoreUnavailable || read.kind !== "wallet") return read;
        // The first read of this session here: its wallet is known now, so its keys are passed.
        hints.remember(tokenHash, read.wallet);
        return readSession(identity, tokenHash, now, read.wallet).then((again) =>
          !(again instanceof StoreUnavailable) && again.kind === "wallet" ? corrupt("session") : again,
        );
      }),
  };
};
