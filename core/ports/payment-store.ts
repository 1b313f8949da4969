import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import type { QuotaView } from "../quota.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/** The signature was claimed before (and is still remembered). */
export class AlreadyClaimed extends Schema.TaggedError<AlreadyClaimed>()("AlreadyClaimed", {}) {}

/**
 * Signatures and grants. `claim` marks the signature used AND credits the identity in one
 * atomic step, or does neither: two instances racing on one signature grant exactly once.
 */
export class PaymentStore extends Context.Service<
  PaymentStore,
  {
    /**
     * Whether used signatures outlive a restart of this process (Redis: yes; memory: no). The
     * payment settings refuse older transfers when they do not.
     */
    readonly durable: boolean;
    readonly isClaimed: (signature: string, now: number) => Effect.Effect<boolean, StoreUnavailable>;
    readonly claim: (
      signature: string,
      identity: string,
      queries: number,
      now: number,
    ) => Effect.Effect<QuotaView, AlreadyClaimed | StoreUnavailable>;
    /**
     * Marks the signature used and credits no one (a settlement we run for another server: the
     * goods are theirs), refusing one already used exactly as `claim` does. `usedBy` is who the
     * ledger records. No quota state is written, so nothing is kept beyond the signature's memory.
     */
    readonly markUsed: (
      signature: string,
      usedBy: string,
      now: number,
    ) => Effect.Effect<void, AlreadyClaimed | StoreUnavailable>;
    /**
     * The random memo reference this identity was handed before references were sealed
     * (core/payments/memo-reference.ts), while the store still holds it: a transfer made with it
     * is credited as one with the sealed reference. Read only, never written: Redis keeps the old
     * key until its own 90-day expiry; memory holds none (a restart forgot them anyway).
     */
    readonly legacyReference: (identity: string) => Effect.Effect<string | undefined, StoreUnavailable>;
  }
>()("core/PaymentStore") {}
