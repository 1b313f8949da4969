/**
 * What the memory log holds: once full, the events it dropped are let go at once (not kept
 * until the next compaction, which would hold up to twice the cap), and question events are
 * kept whole, with their sources' texts.
 */
import { describe, expect, test } from "bun:test";
import { makeMemoryInsights } from "../../adapters/store-memory/insights/memory-insights.ts";
import type { InsightEvent } from "../../core/insights/events.ts";

const DAY = 86_400_000;
const vote = (at: number): InsightEvent => ({
  _tag: "vote",
  at,
  answerId: `a-${at}`,
  vote: "up",
  comment: null,
});

describe("the memory insights log", () => {
  test("a full log lets go of the events it dropped", () => {
    const log = makeMemoryInsights({ retentionMs: DAY, maxEvents: 100 });
    // 140 events in all: 40 dropped, fewer than the 70 that would trigger a compaction.
    for (let i = 0; i < 140; i++) log.append(vote(1000 + i));
    expect(log.size()).toBe(100);
    // Counted in the log itself, not through the garbage collector (whose conservative stack
    // scan may keep any one object alive a while): the 40 dropped events are not referenced.
    expect(log.referenced()).toBe(100);
    expect(log.between(0, 10_000, 2000).map((event) => event.at)).toEqual(
      Array.from({ length: 100 }, (_, i) => 1040 + i),
    );
  });

  test("a question's sources are kept as they came", () => {
    const log = makeMemoryInsights({ retentionMs: DAY, maxEvents: 100 });
    const source = (n: number) => ({
      passage: `p${n}`,
      title: `Title ${n}`,
      url: `https://docs.example/p${n}#a`,
      page: `https://docs.example/p${n}`,
      cited: n === 1,
    });
    const question: InsightEvent = {
      _tag: "question",
      at: 5,
      visitor: "v",
      question: "How?",
      declined: false,
      billing: "free",
      conversation: null,
      answerId: "a1",
      latencyMs: 3,
      sources: [source(1), source(2)],
    };
    log.append(question);
    log.append({ ...question, at: 6, sources: [source(2)] });
    expect(log.between(0, 10, 10)).toEqual([question, { ...question, at: 6, sources: [source(2)] }]);
  });
});
