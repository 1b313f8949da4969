import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { Hold, PaidDailyCapReached, QuotaExhausted, QuotaView } from "../quota.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/**
 * Per-identity quota, each method one atomic transition of core/quota.ts.
 * `now` is passed in (epoch ms) so every instance and test agrees on the day.
 */
export class QuotaStore extends Context.Service<
  QuotaStore,
  {
    readonly view: (identity: string, now: number) => Effect.Effect<QuotaView, StoreUnavailable>;
    /**
     * Holds one query; the store names the hold. With `paidOnly`, no free question is taken (the
     * client has had its free questions across sites, core/use-cases/spend-query.ts).
     */
    readonly reserve: (
      identity: string,
      now: number,
      paidOnly?: boolean,
    ) => Effect.Effect<
      { readonly hold: Hold; readonly view: QuotaView },
      QuotaExhausted | PaidDailyCapReached | StoreUnavailable
    >;
    readonly commit: (
      identity: string,
      holdId: string,
      now: number,
    ) => Effect.Effect<QuotaView, StoreUnavailable>;
    readonly release: (
      identity: string,
      holdId: string,
      now: number,
    ) => Effect.Effect<QuotaView, StoreUnavailable>;
    /** Reachability, for /readyz. */
    readonly ping: Effect.Effect<void, StoreUnavailable>;
  }
>()("core/QuotaStore") {}
