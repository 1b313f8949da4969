/**
 * The reads behind QuickReads on Redis: one script call per GET /api/status, with a session
 * or without. Before them the route asked for the payer link (HMGET, then GET of the wallet's
 * generation), then the identity's quota (HGETALL), then the wallet through the link (a
 * script): up to four round trips where one does; with a session, three.
 *
 * The script only reads (no rule in Lua); the view is computed in JS by the same core functions
 * the memory store runs (core/quota.ts, core/payments/link-allowance.ts), so the two stores
 * cannot drift on it. KEYS are every key knowable before the call (the identity's quota hash,
 * its link, the session); the wallet's generation and quota hash are named by the link's or
 * the session's wallet, known only inside the script, so they are reached by prefix (one
 * Redis, not a cluster, as session-lua.ts).
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
import { SESSION_LOOKUP, sessionLookupOf } from "./session-lookup-lua.ts";

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
 * KEYS = [session, identity's quota], ARGV = [generation key prefix, quota key prefix of
 * wallets, now]: {quota pairs, ...the session's lookup, and the wallet's quota pairs when it is
 * active}.
 */
const SESSION_READ = luaScript(`${SESSION_LOOKUP}
local own = redis.call('HGETALL', KEYS[2])
local found = session_lookup(KEYS[1], ARGV[1], tonumber(ARGV[3]))
if found[1] ~= 'active' then return { own, found } end
return { own, found, redis.call('HGETALL', ARGV[2] .. found[2]) }
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
  const decodeSession = (reply: unknown, now: number): SessionView | StoreUnavailable => {
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
  return {
    spender: (identity: string, now: number): Promise<Quota.QuotaView | StoreUnavailable> =>
      evalScript(client, SPENDER_READ, [keys.quota(identity), keys.payerLink(identity)], args).then(
        (reply) => decode(reply, now),
        unavailable,
      ),
    session: (identity: string, tokenHash: string, now: number): Promise<SessionView | StoreUnavailable> =>
      evalScript(client, SESSION_READ, [keys.session(tokenHash), keys.quota(identity)], [...args, now]).then(
        (reply) => decodeSession(reply, now),
        unavailable,
      ),
  };
};
