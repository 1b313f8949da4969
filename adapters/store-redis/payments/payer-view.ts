/**
 * WalletCredits.viewAsPayer on Redis (GET /api/status of a client without a session): the
 * identity's quota, its payer link and the wallet behind it in one script call, where asking for
 * the link, the wallet's generation and both quotas apart took up to four round trips.
 *
 * The script only reads (no rule in Lua); the view is computed in JS by the same core functions
 * the memory store runs (core/quota.ts, core/payments/link-allowance.ts), so the two stores
 * cannot drift on it. The wallet's generation and quota hash are named by the link's wallet, so
 * the caller passes the wallet it last saw linked (a hint, as payer-hold.ts does): when the link
 * names another, the script answers that wallet having read nothing of it, and the caller calls
 * again with its keys. Every key is passed as a key, so the script runs on Redis Cluster too.
 */
import * as Effect from "effect/Effect";
import { liveLink, viewThroughLink } from "../../../core/payments/link-allowance.ts";
import { combinedView, walletAccount, walletLimits } from "../../../core/payments/wallet-credits.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import * as Quota from "../../../core/quota.ts";
import type { KeyLayout } from "../keys.ts";
import { decodeQuotaHash } from "../quota/quota-hash.ts";
import { evalScript, luaScript, unavailable } from "../redis-client.ts";
import { decodeLinkHash, pairsToRecord } from "../sign-in/link-hash.ts";
import { sessionHints } from "../sign-in/session-lookup-lua.ts";
import type { StoreClient } from "../store-client.ts";

/**
 * KEYS = [identity's quota, identity's link, and with a hinted wallet: its generation, its
 * quota], ARGV = [hinted wallet or '']: {quota pairs} without a link; {'wallet', wallet} when
 * the link names another wallet than the hint (call again); else {quota pairs, link pairs, the
 * wallet's generation, the wallet's quota pairs}.
 */
const PAYER_VIEW = luaScript(`
local wallet = redis.call('HGET', KEYS[2], 'w')
if wallet and wallet ~= ARGV[1] then return { 'wallet', wallet } end
local own = redis.call('HGETALL', KEYS[1])
if not wallet then return { own } end
return { own, redis.call('HGETALL', KEYS[2]), redis.call('GET', KEYS[3]) or '0',
  redis.call('HGETALL', KEYS[4]) }
`);

/** Script calls of one view at most: the hinted one, and two more after a changed link. */
const MAX_CALLS = 3;

/** The link names another wallet than the hint: call again with its keys. */
interface Redirect {
  readonly wallet: string;
}

const corrupt = (what: string) => new StoreUnavailable({ reason: `corrupt ${what}` });

export const redisViewAsPayer = (client: StoreClient, keys: KeyLayout, limits: Quota.QuotaLimits) => {
  const rules = walletLimits(limits);
  const hints = sessionHints();
  const decode = (reply: unknown, now: number): Quota.QuotaView | StoreUnavailable | Redirect => {
    if (Array.isArray(reply) && reply[0] === "wallet" && typeof reply[1] === "string")
      return { wallet: reply[1] };
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
  const once = async (identity: string, now: number, hint: string | undefined) => {
    const walletKeys =
      hint === undefined ? [] : [keys.sessionGeneration(hint), keys.quota(walletAccount(hint))];
    return evalScript(
      client,
      PAYER_VIEW,
      [keys.quota(identity), keys.payerLink(identity), ...walletKeys],
      [hint ?? ""],
    ).then((reply) => decode(reply, now), unavailable);
  };
  // A link that changes again between two calls is followed a few times, then fails as the store's.
  const view = async (identity: string, now: number): Promise<Quota.QuotaView | StoreUnavailable> => {
    let hint = hints.get(identity);
    for (let call = 0; call < MAX_CALLS; call++) {
      const reply = await once(identity, now, hint);
      if (!("wallet" in reply)) return reply;
      hint = reply.wallet;
      hints.remember(identity, hint);
    }
    return new StoreUnavailable({ reason: "the payer link kept changing during a view" });
  };
  return (identity: string, now: number): Effect.Effect<Quota.QuotaView, StoreUnavailable> =>
    Effect.flatMap(
      Effect.promise(() => view(identity, now)),
      (result) => (result instanceof StoreUnavailable ? Effect.fail(result) : Effect.succeed(result)),
    );
};
