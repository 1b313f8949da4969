/**
 * The language model failing or slow, through the real app with the real Groq adapter (the
 * real groq-sdk against a loopback server speaking Groq's protocol) and its extractive
 * fallback: the answer comes within the LLM budget plus a margin, is extractive and cites its
 * sources, and the question is charged exactly once, in JSON and in SSE alike.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import { generatorLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { defaultConfig } from "../../src/runtime/app-layer.ts";
import { type FakeGroq, type FakeReply, startFakeGroq } from "../support/fake-groq.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

const BUDGET_MS = 400;
let fake: FakeGroq;
const build = testApps(afterAll);
let t: TestApp;
const warnings: string[] = [];
/** A fresh client per test, so each starts with a full quota. */
let client = 10;

beforeAll(async () => {
  fake = await startFakeGroq();
  const config = defaultConfig({
    llm: { apiKey: Redacted.make(fake.apiKey), model: "llama-3.1-8b-instant", baseUrl: fake.baseUrl },
  });
  t = build({
    freeQueries: 100,
    generator: withSettings(
      config,
      generatorLayer({
        timeoutMs: 250,
        primaryBudgetMs: BUDGET_MS,
        onFallback: (event) => warnings.push(event.reason),
      }),
    ),
  });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  warnings.length = 0;
});

const remaining = async (from: string) => (await (await t.call("/api/status", {}, from)).json()).remaining;

/** Every reply the fake gives, for as many calls as the adapter makes (retries included). */
const always = (reply: FakeReply) => fake.script(...Array.from({ length: 10 }, () => reply));

describe.each<[string, FakeReply]>([
  ["hangs", { kind: "hang" }],
  ["answers 500", { kind: "status", status: 500 }],
  ["answers 429", { kind: "status", status: 429, headers: { "retry-after": "0" } }],
  ["answers garbage", { kind: "malformed" }],
])("the LLM %s", (_, reply) => {
  test("JSON: an extractive answer within the budget, charged once", async () => {
    const from = `192.0.2.${++client}`;
    always(reply);
    const before = await remaining(from);
    const started = performance.now();
    const res = await t.chat("How do I write a file?", from);
    const tookMs = performance.now() - started;
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.response).toMatch(/\[\d\]/); // the extractive answer cites its passages
    expect(body.response).not.toContain("Default answer");
    expect(tookMs).toBeLessThan(BUDGET_MS + 1000);
    expect(warnings.length).toBe(1);
    expect(await remaining(from)).toBe(before - 1);
  });

  test("SSE: falls back before any text, done once, charged once", async () => {
    const from = `192.0.2.${++client}`;
    always(reply);
    const before = await remaining(from);
    const res = await t.call(
      "/api/chat",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({ message: "How do I write a file?" }),
      },
      from,
    );
    const events = await res.text();
    expect(events.match(/event: done/g)?.length).toBe(1);
    expect(events).not.toContain("event: error");
    expect(await remaining(from)).toBe(before - 1);
  });
});

test("a slow but healthy LLM inside the budget is used, not the fallback", async () => {
  fake.script({ kind: "answer", text: "From the model [1]." });
  const res = await t.chat("How do I write a file?", "192.0.2.60");
  expect((await res.json()).response).toBe("From the model [1].");
  expect(warnings).toEqual([]);
});
