/** GET /api/admin/insights and /api/admin/export as use cases: the range's events, summarised or raw. */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import { ANSWER_MEMORY_MS } from "../answers/feedback.ts";
import { type DayRange, rangeEnd, rangeStart } from "../insights/day-range.ts";
import { summarize } from "../insights/summarize.ts";
import { unattributedView } from "../insights/unattributed-view.ts";
import { InsightsStore } from "../ports/insights-store.ts";
import { UnattributedPayments } from "../ports/unattributed-payments.ts";

const eventsBetween = (from: number, to: number) =>
  Effect.flatMap(InsightsStore, (store) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => store.between(from, to, now)),
  );

/** The unattributed payments of the range (by block time), oldest first: the owner's refunds to make. */
const unattributedOf = (range: DayRange) =>
  Effect.flatMap(UnattributedPayments, (store) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.map(store.between(rangeStart(range), rangeEnd(range), now), (entries) =>
        entries.map(unattributedView),
      ),
    ),
  );

/** The report; votes given up to a week after the range still count for its answers. */
export const readInsights = Effect.fn("readInsights")(function* (range: DayRange) {
  const events = yield* eventsBetween(rangeStart(range), rangeEnd(range) + ANSWER_MEMORY_MS);
  return { ...summarize(events, range), unattributed: yield* unattributedOf(range) };
});

/** Every event of the range, oldest first, and its unattributed payments. */
export const exportInsights = Effect.fn("exportInsights")(function* (range: DayRange) {
  const events = yield* eventsBetween(rangeStart(range), rangeEnd(range));
  return { events, unattributed: yield* unattributedOf(range) };
});
