/**
 * The wallet a hosted site's keys were written for: `<keyPrefix>wallet`, never expired, beside
 * the keys it vouches for. The keys hold the credits, sessions and payment records that wallet's
 * payers bought; the caller refuses to give them to a site of the same id paid into another
 * wallet (src/sites/site-wallet.ts), after a restart too.
 */
import * as Effect from "effect/Effect";
import type { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { type ConnectOptions, unavailable } from "../redis-client.ts";
import { sharedConnection } from "../shared-connection.ts";

/**
 * The wallet held for `keyPrefix` after this call: `wallet` when none was or `move` (an open
 * site's owner moved it), else the one held (SET NX, then GET).
 */
export const claimSiteWallet = (
  options: ConnectOptions & { readonly keyPrefix: string },
  wallet: string,
  move: boolean,
): Effect.Effect<string, StoreUnavailable> =>
  Effect.scoped(
    Effect.gen(function* () {
      const client = yield* sharedConnection(options);
      const key = `${options.keyPrefix}wallet`;
      const held = yield* Effect.tryPromise({
        try: async () => {
          const set = move ? await client.set(key, wallet) : await client.set(key, wallet, "NX");
          return set === "OK" ? wallet : await client.get(key);
        },
        catch: unavailable,
      });
      return held ?? wallet;
    }),
  );
