/**
 * The memory log keeps events as packed records: whatever an event holds (any text, sources
 * numbered or written out once the source table is full, a channel or none), it reads back
 * equal to the event appended.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { makeInsightRecords } from "../../adapters/store-memory/insights/insight-records.ts";
import { BILLINGS, CHANNELS, type InsightEvent, PAYMENT_DIALECTS } from "../../core/insights/events.ts";

const at = fc.nat({ max: 2 ** 45 });
const text = fc.string({ unit: "binary", maxLength: 40 });
const source = fc.record({ passage: text, title: text, url: text, page: text, cited: fc.boolean() });
const question = fc
  .record({
    _tag: fc.constant("question" as const),
    at,
    visitor: text,
    question: text,
    declined: fc.boolean(),
    billing: fc.constantFrom(...BILLINGS),
    conversation: fc.option(text, { nil: null }),
    answerId: fc.option(text, { nil: null }),
    latencyMs: fc.nat({ max: 600_000 }),
    sources: fc.array(source, { maxLength: 5 }),
    channel: fc.constantFrom(...CHANNELS, undefined),
  })
  .map(({ channel, ...event }) => (channel === undefined ? event : { ...event, channel }));
const vote = fc.record({
  _tag: fc.constant("vote" as const),
  at,
  answerId: text,
  vote: fc.constantFrom("up" as const, "down" as const),
  comment: fc.option(text, { nil: null }),
});
const payment = fc.record(
  {
    _tag: fc.constant("payment" as const),
    at,
    visitor: text,
    units: fc.maxSafeNat(),
    queries: fc.maxSafeNat(),
    dialect: fc.constantFrom(...PAYMENT_DIALECTS),
    receipt: text,
  },
  { requiredKeys: ["_tag", "at", "visitor", "units", "queries", "dialect"] },
);
const event: fc.Arbitrary<InsightEvent> = fc.oneof(question, vote, payment);

test("a packed event reads back equal, sources numbered or written out", () => {
  // One codec over all runs, its table small enough to fill on the way.
  const codec = makeInsightRecords(500);
  fc.assert(
    fc.property(fc.array(event, { maxLength: 20 }), (events) => {
      for (const e of events) expect(codec.unpack(codec.pack(e), e.at)).toEqual(e);
    }),
    { numRuns: 500 },
  );
  expect(codec.sources()).toBe(500);
});
