/**
 * A site id stays with its wallet. The id names the site's store (on Redis its keys, kept
 * across restarts; on memory the store kept for a removed site), which holds the credits,
 * sessions and payment records that wallet's payers bought: a new site defined under an old id
 * for another wallet would inherit them, and serve on credits paid to someone else. It is
 * refused, with the reason, rather than started empty: emptying would drop the first wallet's
 * payers' credits, which a mistaken edit must never do, and a new site can always take a new id.
 * An open site edited to another wallet is its owner moving it: allowed, the store follows (the
 * binding moves with it). A site without a wallet of its own is bound to the service's wallet,
 * whatever its address (changing PAYMENT_WALLET_ADDRESS refuses nothing).
 */
import * as Effect from "effect/Effect";
import type { RedisTarget } from "../../core/config/config-redis.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import { siteKeyPrefix } from "./site-store.ts";

/** What a site without a wallet of its own is bound to. */
export const SERVICE_WALLET = "the service's wallet";

const walletOf = (definition: SiteDefinition): string => definition.wallet ?? SERVICE_WALLET;

/** The refusal of `definition` by a store bound to `held`, or undefined. */
const refusal = (definition: SiteDefinition, held: string): Error | undefined =>
  held === walletOf(definition)
    ? undefined
    : new Error(
        `site ${definition.id} received payments in ${held}: its store holds the credits, sessions and payment records that wallet's payers bought, so it is not given to a site paid into ${walletOf(definition)}; give that site another id`,
      );

/**
 * The wallets the service's site ids are bound to: in Redis beside each site's keys, else in
 * this process (as long as its memory stores). `bind` records `definition`'s wallet for its id,
 * or says why not; `moved` when an open site is being edited.
 */
export const siteWallets = (redis: RedisTarget | undefined) => {
  const bound = new Map<string, string>();
  return {
    bind: async (definition: SiteDefinition, moved: boolean): Promise<Error | undefined> => {
      const wallet = walletOf(definition);
      if (redis === undefined) {
        const held = moved ? wallet : (bound.get(definition.id) ?? wallet);
        const refused = refusal(definition, held);
        if (refused === undefined) bound.set(definition.id, wallet);
        return refused;
      }
      const { claimSiteWallet } = await import("../../adapters/store-redis/sites/redis-site-wallet.ts");
      const held = await Effect.runPromise(
        claimSiteWallet({ url: redis, keyPrefix: siteKeyPrefix(definition.id) }, wallet, moved),
      );
      return refusal(definition, held);
    },
  };
};
