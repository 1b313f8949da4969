import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { UnattributedPayment } from "../payments/unattributed.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/**
 * Whose a transfer is when one service hosts several sites, so that it is listed for refund
 * once in the whole service (core/payments/unattributed.ts): a payment id any site sealed is
 * that site's to serve, and a transfer no site can attribute goes on the list of its wallet's
 * owner. Provided to hosted sites (src/sites/site-attribution.ts); a store alone, without it,
 * judges by its own seal and lists on its own list.
 */
export class TransferAttribution extends Context.Service<
  TransferAttribution,
  {
    /** Whether a site of the service sealed `paymentId` (its mac holds under that site's key). */
    readonly sealedByAnySite: (paymentId: string) => boolean;
    /** Lists `payment`, received in `wallet`, on the one site that lists that wallet's transfers. */
    readonly listUnattributed: (
      wallet: string,
      payment: UnattributedPayment,
      now: number,
    ) => Effect.Effect<void, StoreUnavailable>;
  }
>()("core/TransferAttribution") {}
