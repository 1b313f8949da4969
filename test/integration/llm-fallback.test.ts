/** Groq (real groq-sdk, loopback server) with the extractive generator behind it. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import * as Stream from "effect/Stream";
import * as ExtractiveGenerator from "../../adapters/llm-extractive/index.ts";
import { type FallbackEvent, withFallback } from "../../adapters/llm-fallback/index.ts";
import * as GroqGenerator from "../../adapters/llm-groq/index.ts";
import { parseConfig } from "../../core/config/config.ts";
import type { AnswerEvent, GenerationInput } from "../../core/ports/generator.ts";
import { generatorLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { FS_CHUNKS, withGenerator } from "../support/llm-fixtures.ts";

let fake: FakeGroq;
beforeAll(async () => {
  fake = await startFakeGroq();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

const input: GenerationInput = { question: "What is process.env?", chunks: FS_CHUNKS, history: [] };
const EXTRACTIVE_TEXT = Effect.runSync(ExtractiveGenerator.extractiveGenerator.generate(input)).text;

const combined = (events: FallbackEvent[]) =>
  withFallback(
    GroqGenerator.layer({
      apiKey: Redacted.make(fake.apiKey),
      model: "llama-3.1-8b-instant",
      baseUrl: fake.baseUrl,
      timeoutMs: 300,
      retry: { retries: 1, baseDelayMs: 5, maxDelayMs: 50 },
    }),
    ExtractiveGenerator.layer,
    { onFallback: (event) => events.push(event) },
  );

describe("Groq with extractive fallback", () => {
  test("the primary answers when it can; no fallback", async () => {
    const events: FallbackEvent[] = [];
    fake.script({ kind: "answer", text: "From the LLM [5]." });
    const answer = await withGenerator(combined(events), (g) => g.generate(input));
    expect(answer.text).toBe("From the LLM [5].");
    expect(events).toEqual([]);
  });

  test("after the primary's retries fail, the extractive answer comes back and the fallback is reported", async () => {
    const events: FallbackEvent[] = [];
    fake.script({ kind: "status", status: 500 }, { kind: "status", status: 500 });
    const answer = await withGenerator(combined(events), (g) => g.generate(input));
    expect(answer.text).toBe(EXTRACTIVE_TEXT);
    // The process.env passage, retrieved fifth, is the one source it lists: [1].
    expect(answer.text).toContain("[1]");
    expect(answer.listed).toEqual([4]);
    expect(fake.requests).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      mode: "generate",
      primary: "groq:llama-3.1-8b-instant",
      fallback: "extractive",
    });
    expect(events[0]?.reason).toContain("HTTP 500");
    expect(events[0]?.reason).not.toContain(fake.apiKey);
  });

  test("a timeout falls back too", async () => {
    const events: FallbackEvent[] = [];
    fake.script({ kind: "hang" });
    expect((await withGenerator(combined(events), (g) => g.generate(input))).text).toBe(EXTRACTIVE_TEXT);
    expect(events[0]?.reason).toContain("timed out");
  });

  test("stream failing before any text: the extractive stream replaces it", async () => {
    const events: FallbackEvent[] = [];
    fake.script({ kind: "status", status: 401 });
    const out = [...(await withGenerator(combined(events), (g) => Stream.runCollect(g.stream(input))))];
    expect(out.at(-1)).toMatchObject({ type: "done", answer: { text: EXTRACTIVE_TEXT } });
    expect(out.filter((e) => e.type === "done")).toHaveLength(1);
    expect(events).toMatchObject([{ mode: "stream" }]);
  });

  test("stream failing after text was sent: the stream fails, nothing is spliced in", async () => {
    const events: FallbackEvent[] = [];
    fake.script({ kind: "stall-mid-stream", deltas: ["Partial "] });
    const seen: AnswerEvent[] = [];
    const error = await withGenerator(combined(events), (g) =>
      Effect.flip(Stream.runForEach(g.stream(input), (e) => Effect.sync(() => seen.push(e)))),
    );
    expect(error._tag).toBe("GenerationFailed");
    expect(seen).toEqual([{ type: "delta", text: "Partial " }]);
    expect(events).toEqual([]);
  });

  test("no passages: fails without a fallback warning, so nothing is charged", async () => {
    const events: FallbackEvent[] = [];
    const error = await withGenerator(combined(events), (g) =>
      Effect.flip(g.generate({ ...input, chunks: [] })),
    );
    expect(error._tag).toBe("GenerationFailed");
    expect(events).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("generatorLayer (chosen from the configuration)", () => {
  const config = (env: Record<string, string>) => {
    const parsed = parseConfig(env);
    if (parsed._tag !== "Success") throw new Error("bad test config");
    return parsed.success;
  };

  test("without LLM_API_KEY: extractive only", async () => {
    const name = await withGenerator(withSettings(config({}), generatorLayer()), (g) =>
      Effect.succeed(g.name),
    );
    expect(name).toBe("extractive");
  });

  test("with LLM_API_KEY, LLM_MODEL and LLM_BASE_URL: Groq at that URL, extractive behind it", async () => {
    const layer = withSettings(
      config({ LLM_API_KEY: fake.apiKey, LLM_MODEL: "llama-3.3-70b-versatile", LLM_BASE_URL: fake.baseUrl }),
      generatorLayer(),
    );
    fake.script({ kind: "answer", text: "Configured [1]." });
    const answer = await withGenerator(layer, (g) => g.generate(input));
    expect(answer.text).toBe("Configured [1].");
    expect(fake.requests[0]?.body).toMatchObject({ model: "llama-3.3-70b-versatile" });
    const name = await withGenerator(layer, (g) => Effect.succeed(g.name));
    expect(name).toBe("groq:llama-3.3-70b-versatile (cached) (fallback: extractive)");
  });
});
