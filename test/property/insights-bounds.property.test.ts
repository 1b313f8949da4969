/**
 * Bounds: whatever a visitor sends and whatever the index holds, a question event is valid by
 * its schema (every field within its limit) and small; the memory log keeps exactly what the
 * retention and the cap allow (checked against a model over random appends).
 */
import { describe, expect, test } from "bun:test";
import * as Schema from "effect/Schema";
import fc from "fast-check";
import { makeMemoryInsights } from "../../adapters/store-memory/insights/memory-insights.ts";
import { encodeEvent, type InsightEvent, QuestionEvent } from "../../core/insights/events.ts";
import { questionEvent } from "../../core/insights/question-event.ts";
import { DEFAULT_REDACTION } from "../../core/insights/redaction.ts";
import type { RetrievedChunk } from "../../core/ports/retrieval.ts";
import { eventArb, T0 } from "../support/insight-events.ts";

const RUNS = { numRuns: 200 };
const anyText = (max: number) => fc.string({ unit: "binary", maxLength: max });

const chunk: fc.Arbitrary<RetrievedChunk> = fc.record({
  id: anyText(600),
  text: anyText(50),
  title: anyText(600),
  heading: anyText(50),
  source: anyText(600),
  url: fc.oneof(fc.webUrl(), anyText(600)),
  score: fc.double({ noNaN: true }),
});

describe("a question event", () => {
  test("is valid by its schema and at most a few kilobytes, whatever it is built from", () =>
    fc.assert(
      fc.property(
        anyText(2000),
        fc.array(chunk, { maxLength: 12 }),
        fc.option(fc.stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/), { nil: undefined }),
        fc.double({ min: -1e9, max: 1e12, noNaN: true }),
        anyText(400),
        (message, sources, conversationId, latencyMs, answerText) => {
          const event = questionEvent(
            {
              question: { identity: "203.0.113.7", message, conversationId },
              outcome: {
                kind: "ready",
                identity: "203.0.113.7",
                wallet: undefined,
                hold: { id: "h", bucket: "paid", day: 1, expiresAt: 2 },
                onWallet: false,
                question: message,
                sources,
                history: [],
                conversationKey: undefined,
                indexVersion: "v1",
              },
              answer: { text: answerText, tokensUsed: 1 },
              answerId: crypto.randomUUID(),
              latencyMs,
            },
            { at: T0, visitor: "hashed", redaction: DEFAULT_REDACTION },
          );
          expect(Schema.is(QuestionEvent)(event)).toBe(true);
          expect(event.sources.length).toBe(Math.min(5, sources.length));
          expect(encodeEvent(event).length).toBeLessThan(64 * 1024);
        },
      ),
      RUNS,
    ));
});

/** The model: every event appended, then the retention (at the new event's time) and the cap. */
const modelAppend = (kept: InsightEvent[], event: InsightEvent, retentionMs: number, maxEvents: number) => {
  const all = [...kept, event].sort((a, b) => a.at - b.at);
  return all.filter((e) => e.at >= event.at - retentionMs).slice(-maxEvents);
};

describe("the memory log", () => {
  test("keeps exactly what the retention and the cap allow, in time order", () =>
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 60 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 30 }),
        (events, maxEvents, retentionDays) => {
          const retentionMs = retentionDays * 86_400_000;
          const log = makeMemoryInsights({ retentionMs, maxEvents });
          let model: InsightEvent[] = [];
          for (const event of events) {
            log.append(event);
            model = modelAppend(model, event, retentionMs, maxEvents);
            expect(log.size()).toBe(model.length);
            expect(log.size()).toBeLessThanOrEqual(maxEvents);
          }
          const now = Math.max(T0, ...events.map((e) => e.at));
          const expected = model.filter((e) => e.at >= now - retentionMs);
          expect(log.between(0, Number.MAX_SAFE_INTEGER, now).map((e) => e.at)).toEqual(
            expected.map((e) => e.at),
          );
          const [from, to] = [T0 - 86_400_000, T0 + 86_400_000];
          expect(log.between(from, to, now).map((e) => e.at)).toEqual(
            expected.filter((e) => e.at >= from && e.at < to).map((e) => e.at),
          );
        },
      ),
      RUNS,
    ));
});
