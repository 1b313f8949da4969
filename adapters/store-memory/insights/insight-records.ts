/**
 * Insight events packed for the memory log: one short JSON array text per event instead of an
 * object graph (the event, its sources array and five source objects, and a string per field).
 * Measured at the soak's scale (dev/bench/structures-heap.ts): about 1,180 bytes of heap per
 * question event as objects, 168 as a record. A source is its number in a table of the
 * distinct sources seen (the index has a few thousand passages, cited or not is the number's
 * lowest bit); past MAX_SOURCES distinct ones, a source is written out in full. Reads decode
 * the records back to the very events appended (the owner's report is read rarely; questions
 * are appended at the chat's rate).
 */
import {
  BILLINGS,
  CHANNELS,
  type EventSource,
  type InsightEvent,
  PAYMENT_DIALECTS,
  type QuestionEvent,
} from "../../../core/insights/events.ts";

/** Distinct sources numbered; past this many, new ones are written out in each record. */
const MAX_SOURCES = 20_000;

type Place = Omit<EventSource, "cited">;
type PackedSource = number | readonly [string, string, string, string, 0 | 1];
/** The records, by position (the time is kept beside the record, for the log's binary search). */
type QuestionRecord = readonly [
  0,
  visitor: string,
  question: string,
  declined: 0 | 1,
  billing: number,
  conversation: string | null,
  answerId: string | null,
  latencyMs: number,
  sources: ReadonlyArray<PackedSource>,
  channel: number,
];
type VoteRecord = readonly [1, answerId: string, vote: "up" | "down", comment: string | null];
type PaymentRecord = readonly [
  2,
  visitor: string,
  units: number,
  queries: number,
  dialect: number,
  receipt?: string,
];

/** Packs and unpacks events; the source table lives as long as the log (at most MAX_SOURCES entries). */
export const makeInsightRecords = (maxSources = MAX_SOURCES) => {
  const numbers = new Map<string, number>();
  // Each distinct source as read back, uncited and cited: events are read-only, so reads share
  // these instead of building five objects per event.
  const places: Array<readonly [EventSource, EventSource]> = [];

  const packSource = (source: EventSource): PackedSource => {
    const key = `${source.passage}\u0000${source.title}\u0000${source.url}\u0000${source.page}`;
    let n = numbers.get(key);
    if (n === undefined && places.length < maxSources) {
      n = places.length;
      const place: Place = {
        passage: source.passage,
        title: source.title,
        url: source.url,
        page: source.page,
      };
      places.push([Object.freeze({ ...place, cited: false }), Object.freeze({ ...place, cited: true })]);
      numbers.set(key, n);
    }
    const cited = source.cited ? 1 : 0;
    return n === undefined ? [source.passage, source.title, source.url, source.page, cited] : n * 2 + cited;
  };
  const unpackSource = (packed: PackedSource): EventSource => {
    if (typeof packed !== "number") {
      const [passage, title, url, page, cited] = packed;
      return { passage, title, url, page, cited: cited === 1 };
    }
    return (places[packed >>> 1] as readonly [EventSource, EventSource])[packed & 1] as EventSource;
  };

  const write = (record: QuestionRecord | VoteRecord | PaymentRecord) => JSON.stringify(record);
  const pack = (event: InsightEvent): string => {
    switch (event._tag) {
      case "question":
        return write([
          0,
          event.visitor,
          event.question,
          event.declined ? 1 : 0,
          BILLINGS.indexOf(event.billing),
          event.conversation,
          event.answerId,
          event.latencyMs,
          event.sources.map(packSource),
          event.channel === undefined ? -1 : CHANNELS.indexOf(event.channel),
        ]);
      case "vote":
        return write([1, event.answerId, event.vote, event.comment]);
      case "payment":
        return write(
          event.receipt === undefined
            ? [2, event.visitor, event.units, event.queries, PAYMENT_DIALECTS.indexOf(event.dialect)]
            : [
                2,
                event.visitor,
                event.units,
                event.queries,
                PAYMENT_DIALECTS.indexOf(event.dialect),
                event.receipt,
              ],
        );
      default:
        return event satisfies never;
    }
  };

  const unpack = (record: string, at: number): InsightEvent => {
    // Only this module writes records, so the shape is known.
    const fields = JSON.parse(record) as QuestionRecord | VoteRecord | PaymentRecord;
    switch (fields[0]) {
      case 0: {
        const question: QuestionEvent = {
          _tag: "question",
          at,
          visitor: fields[1],
          question: fields[2],
          declined: fields[3] === 1,
          billing: BILLINGS[fields[4]] as QuestionEvent["billing"],
          conversation: fields[5],
          answerId: fields[6],
          latencyMs: fields[7],
          sources: fields[8].map(unpackSource),
        };
        const channel = CHANNELS[fields[9]];
        return channel === undefined ? question : { ...question, channel };
      }
      case 1:
        return { _tag: "vote", at, answerId: fields[1], vote: fields[2], comment: fields[3] };
      case 2:
        return {
          _tag: "payment",
          at,
          visitor: fields[1],
          units: fields[2],
          queries: fields[3],
          dialect: PAYMENT_DIALECTS[fields[4]] as (typeof PAYMENT_DIALECTS)[number],
          ...(fields[5] === undefined ? {} : { receipt: fields[5] }),
        };
      default:
        return fields satisfies never;
    }
  };
  return { pack, unpack, sources: () => places.length };
};
