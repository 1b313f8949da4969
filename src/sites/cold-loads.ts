/**
 * The budget of cold index loads (cold-index-loads, core/ceilings/ceilings.ts): a hosted site's
 * index not held in memory is loaded on its first question, which costs this instance CPU, disk
 * and memory; many addresses asking large sites in turn would make it load without end. So
 * loads are admitted against one count per UTC minute for the whole instance (every site
 * together), in the instance's own counter (what a load costs is the instance's); past it the
 * question is answered 503 COLD_INDEX_LOADS_LIMITED with Retry-After and nothing is charged. A
 * loaded or loading index is never refused: only a load that would start counts.
 */
import * as Effect from "effect/Effect";
import { makeMemoryCeilingCounter } from "../../adapters/store-memory/index.ts";
import { retryAfterMs, windowCounter } from "../../core/ceilings/counters.ts";

/** Admits one cold load now (undefined), or gives the ms until one is admitted again. */
export type AdmitLoad = () => number | undefined;

export const coldLoadBudget = (
  perMinute: number,
  onRefused: () => void,
  now: () => number = Date.now,
): AdmitLoad => {
  const { counter } = makeMemoryCeilingCounter();
  return () => {
    const at = now();
    const verdict = Effect.runSync(
      counter.admit([windowCounter("cold-index-loads", "all", perMinute, at)], at),
    );
    if (verdict.admitted) return undefined;
    onRefused();
    return retryAfterMs(verdict.refusedBy, at);
  };
};
