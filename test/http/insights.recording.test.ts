/**
 * Recording never costs the visitor: with the insights store failing (an outage, or a bug) the
 * answer, the vote and the payment are served as before; the failure is logged and counted.
 * The events that are kept hold no address, and redacted text only.
 */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { InsightsStore } from "../../core/ports/insights-store.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { testApps } from "../support/test-app.ts";

const TOKEN = "test-admin-token-0123456789";
const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 120_000 };
const build = testApps();

/** The memory store with its insights log replaced by one that fails each append as told. */
const failingInsights = (fail: Effect.Effect<never, StoreUnavailable>) =>
  Layer.merge(
    MemoryStore.layer(LIMITS),
    Layer.succeed(InsightsStore)(InsightsStore.of({ append: () => fail, between: () => Effect.succeed([]) })),
  );

describe("a failing insights store", () => {
  test.each([
    [
      "an outage (StoreUnavailable)",
      Effect.fail(new StoreUnavailable({ reason: "redis command timed out" })),
      "WARN",
    ],
    ["a bug (defect)", Effect.die(new Error("boom")), "ERROR"],
  ] as const)("%s: the visitor is served, the failure logged and counted", async (_, fail, level) => {
    const t = build({ adminToken: TOKEN, store: failingInsights(fail) });
    const json = await t.chat("How do I write a file?");
    expect(json.status).toBe(200);
    const body = await json.json();
    const streamed = await t.chat("And stream it?", undefined, { stream: true });
    expect(await streamed.text()).toContain("event: done");
    const vote = await t.call("/api/feedback", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ answerId: body.answerId, vote: "up" }),
    });
    expect(vote.status).toBe(200);
    // The admin API waits for its own recordings, so by now every failure is in.
    expect(
      (await t.call("/api/admin/insights", { headers: { Authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(200);
    const metrics = t.metrics.render();
    expect(metrics).toContain('insights_record_failures_total{kind="question"} 2');
    expect(metrics).toContain('insights_record_failures_total{kind="vote"} 1');
    const logged = t.lines.filter((line) => line.level === level && String(line.msg).startsWith("insight"));
    expect(logged).toHaveLength(3);
    expect(logged.every((line) => typeof line.requestId === "string")).toBe(true);
  });
});

describe("what is recorded", () => {
  test("a keyed hash instead of the address, redacted question text, the answer's sources", async () => {
    const t = build({ adminToken: TOKEN, insightsSalt: "a-salt-of-sixteen-chars" });
    const ip = "203.0.113.77";
    expect(
      (await t.chat("My card is 4111 1111 1111 1111 and mail is joe@example.com: how to pay?", ip)).status,
    ).toBe(200);
    const events = await t.runtime.runPromise(
      InsightsStore.use((store) => store.between(0, Number.MAX_SAFE_INTEGER, Date.now())),
    );
    expect(events).toHaveLength(1);
    const [event] = events;
    if (event?._tag !== "question") throw new Error("expected a question event");
    expect(event.question).toBe("My card is [redacted] and mail is [redacted]: how to pay?");
    expect(event.visitor).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(JSON.stringify(events)).not.toContain(ip);
    expect(event.sources.map((source) => [source.passage, source.cited])).toEqual([
      ["doc-1", true],
      ["doc-2", false],
      ["doc-3", false],
      ["doc-4", false],
      ["doc-5", false],
    ]);
    expect(t.metrics.render()).toContain('insights_events_total{kind="question"} 1');
  });
});
