/**
 * How many entries each bounded structure of the process holds (quota states, memo references,
 * answer ids, insight events...), and the cap of those that have one, for /metrics: an operator
 * sees which one grows. Only a store holding its state in the process provides it (the memory
 * store); Redis holds its own and reports it there.
 */
import * as Context from "effect/Context";

export interface HeldSize {
  /** A snake_case name, e.g. "quota_states". */
  readonly structure: string;
  readonly entries: number;
  /** The most it keeps, when it has a fixed cap (others are bounded by time). */
  readonly cap?: number;
}

export class HeldSizes extends Context.Service<
  HeldSizes,
  { readonly sizes: () => ReadonlyArray<HeldSize> }
>()("core/HeldSizes") {}
