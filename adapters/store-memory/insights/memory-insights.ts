/**
 * The insights' event log in process memory: records in time order (insight-records.ts packs
 * each event into one short text), with their times beside them in a plain array of numbers
 * for the binary searches. Bounded like the Redis log: an append drops events older than the
 * retention (judged at the new event's time) and, past the cap, the oldest; reads skip what
 * the retention no longer allows at `now`.
 */
import type { InsightEvent } from "../../../core/insights/events.ts";
import type { InsightsBounds } from "../../../core/ports/insights-store.ts";
import { makeInsightRecords } from "./insight-records.ts";

export const makeMemoryInsights = ({ retentionMs, maxEvents }: InsightsBounds) => {
  // Dropped events are skipped by moving `head` and their slots cleared, so the log holds at
  // most `maxEvents` events (not twice as many until the next compaction); the arrays are
  // compacted once half is dead, so a full log drops its oldest in constant time instead of
  // shifting 100 000 entries.
  let records: Array<string | undefined> = [];
  let times: number[] = [];
  let head = 0;
  const codec = makeInsightRecords();
  /** The first index at or after `head` whose event is at `time` or later. */
  const firstAt = (time: number) => {
    let [low, high] = [head, times.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((times[mid] as number) < time) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  return {
    append: (event: InsightEvent): void => {
      const record = codec.pack(event);
      let i = times.length;
      while (i > head && (times[i - 1] as number) > event.at) i--;
      if (i === times.length) {
        records.push(record);
        times.push(event.at);
      } else {
        records.splice(i, 0, record);
        times.splice(i, 0, event.at);
      }
      const next = Math.max(firstAt(event.at - retentionMs), times.length - maxEvents);
      records.fill(undefined, head, next);
      head = next;
      if (head > times.length / 2) {
        records = records.slice(head);
        times = times.slice(head);
        head = 0;
      }
    },
    between: (from: number, to: number, now: number): ReadonlyArray<InsightEvent> => {
      const [first, end] = [firstAt(Math.max(from, now - retentionMs)), firstAt(to)];
      const events: InsightEvent[] = [];
      for (let i = first; i < end; i++) events.push(codec.unpack(records[i] as string, times[i] as number));
      return events;
    },
    /** Events held, for tests of the bounds and for /metrics. */
    size: () => times.length - head,
    /** Events the log still references, dropped ones included if it kept them (for tests). */
    referenced: () => records.reduce((count, record) => count + (record === undefined ? 0 : 1), 0),
  };
};
