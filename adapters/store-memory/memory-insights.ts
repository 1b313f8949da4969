/**
 * The insights' event log in process memory: one array in time order. Bounded like the Redis
 * log: an append drops events older than the retention (judged at the new event's time) and,
 * past the cap, the oldest; reads skip what the retention no longer allows at `now`.
 */
import type { InsightEvent } from "../../core/insights/events.ts";
import type { InsightsBounds } from "../../core/ports/insights-store.ts";

export const makeMemoryInsights = ({ retentionMs, maxEvents }: InsightsBounds) => {
  let events: InsightEvent[] = [];
  // Dropped events are skipped by moving `head`; the array is compacted once half is dead, so a
  // full log drops its oldest in constant time instead of shifting 100 000 entries.
  let head = 0;
  /** The first index at or after `head` whose event is at `time` or later. */
  const firstAt = (time: number) => {
    let [low, high] = [head, events.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((events[mid] as InsightEvent).at < time) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  return {
    append: (event: InsightEvent): void => {
      let i = events.length;
      while (i > head && (events[i - 1] as InsightEvent).at > event.at) i--;
      events.splice(i, 0, event);
      head = Math.max(firstAt(event.at - retentionMs), events.length - maxEvents);
      if (head > events.length / 2) {
        events = events.slice(head);
        head = 0;
      }
    },
    between: (from: number, to: number, now: number): ReadonlyArray<InsightEvent> =>
      events.slice(firstAt(Math.max(from, now - retentionMs)), firstAt(to)),
    /** Events held, for tests of the bounds. */
    size: () => events.length - head,
  };
};
