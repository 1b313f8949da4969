/**
 * One unsettled x402 v2 payment per paying wallet and per source token account, across
 * instances. A settlement holds both keys from just before its transaction is sent until it is
 * settled, so a payer cannot have N transactions of one balance in flight, N-1 of which fail on
 * chain at the fee payer's expense; after a failure the keys stay held for a short cool-down.
 * The rule is core/payments/settlement-locks.ts; the stores hold it (memory, Redis).
 */
import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { Acquired } from "../payments/settlement-locks.ts";
import type { StoreUnavailable } from "./store-errors.ts";

export class SettlementLocks extends Context.Service<
  SettlementLocks,
  {
    /**
     * Holds every key for `holder` until `now + ttlMs`, all or none ("acquired"), or says who
     * is in the way: the holder's own settlement in flight, or another's.
     */
    readonly acquire: (
      keys: ReadonlyArray<string>,
      holder: string,
      now: number,
      ttlMs: number,
    ) => Effect.Effect<Acquired, StoreUnavailable>;
    /** Lets the keys `holder` holds go: at once, or held on until `now + coolDownMs`. */
    readonly release: (
      keys: ReadonlyArray<string>,
      holder: string,
      now: number,
      coolDownMs: number,
    ) => Effect.Effect<void, StoreUnavailable>;
  }
>()("core/SettlementLocks") {}
