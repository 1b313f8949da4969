import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import type { InsightEvent } from "../insights/events.ts";
import type { StoreUnavailable } from "./store-errors.ts";

/** How much the insights keep: events younger than `retentionMs`, and at most `maxEvents` of them. */
export interface InsightsBounds {
  readonly retentionMs: number;
  readonly maxEvents: number;
}

/**
 * The insights' event log, in the same store as the quota. Bounded both ways: an event older
 * than the retention is gone, and past the cap the oldest go first.
 */
export class InsightsStore extends Context.Service<
  InsightsStore,
  {
    /** Keeps the event (dropping what the bounds no longer allow, judged at the event's time). */
    readonly append: (event: InsightEvent) => Effect.Effect<void, StoreUnavailable>;
    /**
     * Events with `from <= at < to` still within the retention at `now`, oldest first; at most
     * the cap. Entries the store cannot read are skipped.
     */
    readonly between: (
      from: number,
      to: number,
      now: number,
    ) => Effect.Effect<ReadonlyArray<InsightEvent>, StoreUnavailable>;
  }
>()("core/InsightsStore") {}
