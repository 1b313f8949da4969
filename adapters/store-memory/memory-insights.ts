/**
 * The insights' event log in process memory: one array in time order. Bounded like the Redis
 * log: an append drops events older than the retention (judged at the new event's time) and,
 * past the cap, the oldest; reads skip what the retention no longer allows at `now`.
 */
import type { InsightEvent } from "../../core/insights/events.ts";
import type { InsightsBounds } from "../../core/ports/insights-store.ts";

/** Distinct source texts shared between events (see `share`); past this many, new ones are kept as they come. */
const MAX_SHARED_TEXTS = 20_000;

export const makeMemoryInsights = ({ retentionMs, maxEvents }: InsightsBounds) => {
  // Dropped events are skipped by moving `head` and their slots cleared, so the log holds at
  // most `maxEvents` events (not twice as many until the next compaction); the array is
  // compacted once half is dead, so a full log drops its oldest in constant time instead of
  // shifting 100 000 entries.
  let events: Array<InsightEvent | undefined> = [];
  let head = 0;
  const at = (i: number) => (events[i] as InsightEvent).at;
  /** The first index at or after `head` whose event is at `time` or later. */
  const firstAt = (time: number) => {
    let [low, high] = [head, events.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (at(mid) < time) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  // A question's sources (passage ids, titles, links) come from the index, a few thousand
  // distinct texts, but retrieval builds new strings for each search: sharing one copy of each
  // keeps about 20 strings per event from being held 100 000 times over.
  const shared = new Map<string, string>();
  const share = (text: string): string => {
    const known = shared.get(text);
    if (known !== undefined) return known;
    if (shared.size < MAX_SHARED_TEXTS) shared.set(text, text);
    return text;
  };
  const compact = (event: InsightEvent): InsightEvent =>
    event._tag !== "question"
      ? event
      : {
          ...event,
          sources: event.sources.map((source) => ({
            ...source,
            passage: share(source.passage),
            title: share(source.title),
            url: share(source.url),
            page: share(source.page),
          })),
        };
  return {
    append: (event: InsightEvent): void => {
      let i = events.length;
      while (i > head && at(i - 1) > event.at) i--;
      events.splice(i, 0, compact(event));
      const next = Math.max(firstAt(event.at - retentionMs), events.length - maxEvents);
      events.fill(undefined, head, next);
      head = next;
      if (head > events.length / 2) {
        events = events.slice(head);
        head = 0;
      }
    },
    between: (from: number, to: number, now: number): ReadonlyArray<InsightEvent> =>
      events.slice(firstAt(Math.max(from, now - retentionMs)), firstAt(to)) as InsightEvent[],
    /** Events held, for tests of the bounds. */
    size: () => events.length - head,
    /** Events the log still references, dropped ones included if it kept them (for tests). */
    referenced: () => events.reduce((count, event) => count + (event === undefined ? 0 : 1), 0),
  };
};
