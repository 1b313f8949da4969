/**
 * WalletCredits.viewAsPayer on Redis (GET /api/status of a client without a session): the
 * identity's quota, its payer link and the wallet behind it in one script call, where asking for
 * the link, the wallet's generation and both quotas apart took up to four round trips.
 *
 * The script only reads (no rule in Lua); the view is computed in JS by the same core functions
 * the memory store runs (core/quota.ts, core/payments/link-allowance.ts), so the two stores
 * cannot drift on it. The wallet's generation and quota hash are named by the link's wallet,
 * known only inside the script, so they are reached by prefix (one Redis, not a cluster).
 */
import * as Effect from "effect/Effect";
import type { Redis } from "ioredis";
import { liveLink, viewThroughLink } from "../../core/payments/link-allowance.ts";
import { combinedView, walletAccount, walletLimits } from "../../core/payments/wallet-credits.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import * as Quota from "../../core/quota.ts";
import type { KeyLayout } from "./keys.ts";
import { decodeLinkHash, pairsToRecord } from "./link-hash.ts";
import { decodeQuotaHash } from "./quota-hash.ts";
import { evalScript, luaScript, unavailable } from "./redis-client.ts";

/**
 * KEYS = [identity's quota, identity's link], ARGV = [generation key prefix, quota key prefix
 * of wallets]: {quota pairs} without a link, else {quota pairs, link pairs, the wallet's
 * generation, the wallet's quota pairs}.
 */
const PAYER_VIEW = luaScript(`
local own = redis.call('HGETALL', KEYS[1])
local wallet = redis.call('HGET', KEYS[2], 'w')
if not wallet then return { own } end
return { own, redis.call('HGETALL', KEYS[2]), redis.call('GET', ARGV[1] .. wallet) or '0',
  redis.call('HGETALL', ARGV[2] .. wallet) }
`);

const corrupt = (what: string) => new StoreUnavailable({ reason: `corrupt ${what}` });

export const redisViewAsPayer = (client: Redis, keys: KeyLayout, limits: Quota.QuotaLimits) => {
  const rules = walletLimits(limits);
  const args = [keys.sessionGeneration(""), keys.quota(walletAccount(""))];
  const decode = (reply: unknown, now: number): Quota.QuotaView | StoreUnavailable => {
    if (!Array.isArray(reply) || !Array.isArray(reply[0])) return corrupt("payer view");
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
  return (identity: string, now: number): Effect.Effect<Quota.QuotaView, StoreUnavailable> =>
    Effect.flatMap(
      Effect.promise(() =>
        evalScript(client, PAYER_VIEW, [keys.quota(identity), keys.payerLink(identity)], args).then(
          (reply) => decode(reply, now),
          unavailable,
        ),
      ),
      (view) => (view instanceof StoreUnavailable ? Effect.fail(view) : Effect.succeed(view)),
    );
};
