import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { UnattributedPayment } from "../payments/unattributed.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/**
 * Transfers we verified but attribute to nobody, for the owner to refund by hand
 * (core/payments/unattributed.ts), in the same store as the quota, bounded by retention and cap.
 */
export class UnattributedPayments extends Context.Service<
  UnattributedPayments,
  {
    /** Lists the transfer once (by its signature), dropping what the bounds no longer allow. */
    readonly record: (payment: UnattributedPayment, now: number) => Effect.Effect<void, StoreUnavailable>;
    /** Entries with `from <= at < to` still kept at `now`, oldest first. */
    readonly between: (
      from: number,
      to: number,
      now: number,
    ) => Effect.Effect<ReadonlyArray<UnattributedPayment>, StoreUnavailable>;
  }
>()("core/UnattributedPayments") {}
