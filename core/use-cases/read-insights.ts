/** GET /api/admin/insights and /api/admin/export as use cases: the range's events, summarised or raw. */
import { Clock, Effect } from "effect";
import { ANSWER_MEMORY_MS } from "../feedback.ts";
import { type DayRange, rangeEnd, rangeStart } from "../insights/day-range.ts";
import { summarize } from "../insights/summarize.ts";
import { InsightsStore } from "../ports/insights-store.ts";

const eventsBetween = (from: number, to: number) =>
  Effect.flatMap(InsightsStore, (store) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => store.between(from, to, now)),
  );

/** The report; votes given up to a week after the range still count for its answers. */
export const readInsights = Effect.fn("readInsights")(function* (range: DayRange) {
  const events = yield* eventsBetween(rangeStart(range), rangeEnd(range) + ANSWER_MEMORY_MS);
  return summarize(events, range);
});

/** Every event of the range, oldest first. */
export const exportInsights = (range: DayRange) =>
  eventsBetween(rangeStart(range), rangeEnd(range)).pipe(Effect.withSpan("exportInsights"));
