/**
 * The budget of cold index loads (cold-index-loads and cold-index-loads-per-client,
 * core/ceilings/ceilings.ts): a hosted site's index not held in memory is loaded on its first
 * use, which costs this instance CPU, disk and memory; many addresses asking large sites in turn
 * would make it load without end, and one address asking every cold site would spend the whole
 * budget for everyone. So a load is admitted against the client's count and the instance's, per
 * UTC minute, all or none, in the instance's own counter (what a load costs is the instance's).
 * A question (it holds one of the client's queries) may spend the whole budget; a free listing
 * (llms.txt, MCP read_page) only while more than half of it is left, so strangers reading
 * listings never leave questions without loads. Past it the request is answered 503
 * COLD_INDEX_LOADS_LIMITED with Retry-After, nothing charged and nothing of either count spent.
 * A loaded or loading index is never refused: only a load that would start counts.
 */
import * as Effect from "effect/Effect";
import { makeMemoryCeilingCounter } from "../../adapters/store-memory/index.ts";
import type { CeilingName } from "../../core/ceilings/ceilings.ts";
import { retryAfterMs, windowCounter } from "../../core/ceilings/counters.ts";
import type { RetrievalAsker } from "../../core/ports/retrieval.ts";

/** Admits one cold load for `asker` now (undefined), or gives the ms until one is admitted again. */
export type AdmitLoad = (asker: RetrievalAsker) => number | undefined;

export interface ColdLoadLimits {
  readonly perMinute: number;
  readonly perClientPerMinute: number;
}

/**
 * How many of the minute's loads free listings may start together: half, rounded down, so
 * questions always keep at least half (an odd budget leaves them the larger part; a budget of 1
 * leaves listings none: a cold site's listing waits until a question has loaded it).
 */
export const listingShare = (perMinute: number) => Math.floor(perMinute / 2);

export const coldLoadBudget = (
  limits: ColdLoadLimits,
  onRefused: (ceiling: CeilingName) => void,
  now: () => number = Date.now,
): AdmitLoad => {
  const { counter } = makeMemoryCeilingCounter();
  return (asker) => {
    const at = now();
    const everyone = asker.question ? limits.perMinute : listingShare(limits.perMinute);
    const counters = [
      ...(asker.client === undefined
        ? []
        : [windowCounter("cold-index-loads-per-client", asker.client, limits.perClientPerMinute, at)]),
      windowCounter("cold-index-loads", "all", everyone, at),
    ];
    const verdict = Effect.runSync(counter.admit(counters, at));
    if (verdict.admitted) return undefined;
    onRefused(verdict.refusedBy.ceiling);
    return retryAfterMs(verdict.refusedBy, at);
  };
};
