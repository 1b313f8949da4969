/**
 * The counters of the chain lookup budget, shared by the instances through the store. The rule
 * is core/payments/chain-lookup-budget.ts; the memory store and the Redis store (one Lua script)
 * apply it atomically: check every counter, and when the lookup is admitted, count it in all.
 */
import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { ChainLookupCeilings, LookupRequest, LookupVerdict } from "../payments/chain-lookup-budget.ts";
import type { StoreUnavailable } from "./store-errors.ts";

export class ChainLookupBudget extends Context.Service<
  ChainLookupBudget,
  {
    /** Admits and counts one lookup, or says which ceiling refuses it (nothing is counted then). */
    readonly reserve: (
      request: LookupRequest,
      ceilings: ChainLookupCeilings,
      now: number,
    ) => Effect.Effect<LookupVerdict, StoreUnavailable>;
  }
>()("core/ChainLookupBudget") {}
