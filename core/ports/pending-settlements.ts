/**
 * The sponsored settlements whose outcome is not known yet (core/payments/pending-settlement.ts),
 * shared by every instance, and the reconciler's lease: one instance at a time follows them to
 * a final state. Memory for one instance, Redis when several share it.
 */
import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { PendingSettlement } from "../payments/pending-settlement.ts";
import type { StoreUnavailable } from "./store-errors.ts";

export class PendingSettlements extends Context.Service<
  PendingSettlements,
  {
    /** Records (or replaces, by signature) an entry before its transaction is sent; false when the table is full. */
    readonly record: (entry: PendingSettlement) => Effect.Effect<boolean, StoreUnavailable>;
    readonly find: (signature: string) => Effect.Effect<PendingSettlement | undefined, StoreUnavailable>;
    /** Up to `max` entries, in no particular order. */
    readonly list: (max: number) => Effect.Effect<ReadonlyArray<PendingSettlement>, StoreUnavailable>;
    /** Removes the entry if `lease` recorded it; true when this call removed it (exactly one caller does). */
    readonly close: (signature: string, lease: string) => Effect.Effect<boolean, StoreUnavailable>;
    /** Takes the reconciler's lease for `holder` until `now + ttlMs` unless another holds it. */
    readonly claimReconciler: (
      holder: string,
      now: number,
      ttlMs: number,
    ) => Effect.Effect<boolean, StoreUnavailable>;
    readonly releaseReconciler: (holder: string) => Effect.Effect<void, StoreUnavailable>;
  }
>()("core/PendingSettlements") {}
