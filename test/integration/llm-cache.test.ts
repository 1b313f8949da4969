/**
 * The answer cache in front of Groq (real groq-sdk against a loopback Groq-protocol server):
 * identical questions skip the model, a model failure is rescued from the cache before the
 * extractive fallback, a new index version or another conversation context misses; and the
 * model's own "not covered" answer is a decline, free through the whole HTTP service.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import * as ExtractiveGenerator from "../../adapters/llm-extractive/index.ts";
import type { CacheOutcome } from "../../adapters/llm-fallback/index.ts";
import { NOT_COVERED_SENTENCE } from "../../adapters/llm-groq/prompt.ts";
import { MemoryAnswerCache } from "../../adapters/store-memory/index.ts";
import { parseConfig } from "../../core/config/config.ts";
import type { GenerationInput } from "../../core/ports/generator.ts";
import { generatorLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { FS_CHUNKS, withGenerator } from "../support/llm-fixtures.ts";
import { testApps } from "../support/test-app.ts";

let fake: FakeGroq;
beforeAll(async () => {
  fake = await startFakeGroq();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

const groqConfig = () => {
  const parsed = parseConfig({ LLM_API_KEY: fake.apiKey, LLM_BASE_URL: fake.baseUrl });
  if (parsed._tag !== "Success") throw new Error("config");
  return parsed.success;
};
const cachedGroq = (outcomes: CacheOutcome[]) =>
  withSettings(
    groqConfig(),
    generatorLayer({
      timeoutMs: 300,
      onCache: (outcome) => outcomes.push(outcome),
      onFallback: () => undefined,
      cache: MemoryAnswerCache.layer(100),
    }),
  );
const input = (question: string, extra: Partial<GenerationInput> = {}): GenerationInput => ({
  question,
  chunks: FS_CHUNKS,
  history: [],
  indexVersion: "v1",
  ...extra,
});

describe("answer cache", () => {
  test("an identical question (any case, spacing, final ?) is answered without calling the model", async () => {
    const outcomes: CacheOutcome[] = [];
    fake.script({ kind: "answer", text: "Use process.env [5]." });
    const answers = await withGenerator(cachedGroq(outcomes), (g) =>
      Effect.all([g.generate(input("What is process.env?")), g.generate(input("  what is PROCESS.ENV  "))]),
    );
    expect(answers.map((a) => a.text)).toEqual(["Use process.env [5].", "Use process.env [5]."]);
    expect(fake.requests).toHaveLength(1);
    expect(outcomes).toEqual(["miss", "hit"]);
  });

  test("another index version or another conversation context is a miss; no version, no caching", async () => {
    const outcomes: CacheOutcome[] = [];
    await withGenerator(cachedGroq(outcomes), (g) =>
      Effect.all([
        g.generate(input("What is process.env?")),
        g.generate(input("What is process.env?", { indexVersion: "v2" })),
        g.generate(
          input("What is process.env?", { history: [{ role: "user", content: "How do I read a file?" }] }),
        ),
        g.generate(input("What is process.env?", { indexVersion: undefined })),
        g.generate(input("What is process.env?", { indexVersion: undefined })),
      ]),
    );
    expect(fake.requests).toHaveLength(5);
    expect(outcomes).toEqual(["miss", "miss", "miss"]);
  });

  test("when the model fails, the same question answered in another conversation is served first", async () => {
    const outcomes: CacheOutcome[] = [];
    fake.script({ kind: "answer", text: "Cached answer [5]." });
    const [first, rescued, fallback] = await withGenerator(cachedGroq(outcomes), (g) =>
      Effect.gen(function* () {
        const a = yield* g.generate(input("What is process.env?"));
        fake.script(...Array.from({ length: 6 }, () => ({ kind: "status" as const, status: 500 })));
        const b = yield* g.generate(
          input("What is process.env?", { history: [{ role: "user", content: "hi" }] }),
        );
        const c = yield* g.generate(input("How do I write a file?"));
        return [a, b, c] as const;
      }),
    );
    expect(first.text).toBe("Cached answer [5].");
    expect(rescued.text).toBe("Cached answer [5].");
    const extractive = Effect.runSync(
      ExtractiveGenerator.extractiveGenerator.generate(input("How do I write a file?")),
    );
    expect(fallback.text).toBe(extractive.text);
    expect(outcomes).toEqual(["miss", "rescued"]);
  });

  test("streams: a miss is kept once done, a hit streams the kept answer as one delta", async () => {
    const outcomes: CacheOutcome[] = [];
    fake.script({ kind: "answer", text: "Streamed answer [1]." });
    const [first, second] = await withGenerator(cachedGroq(outcomes), (g) =>
      Effect.all([
        Stream.runCollect(g.stream(input("How do I write a file?"))),
        Stream.runCollect(g.stream(input("How do I write a file?"))),
      ]),
    );
    const done = (events: Iterable<{ type: string }>) => [...events].at(-1);
    expect(done(first)).toMatchObject({ type: "done", answer: { text: "Streamed answer [1]." } });
    expect([...second]).toEqual([
      { type: "delta", text: "Streamed answer [1]." },
      { type: "done", answer: expect.objectContaining({ text: "Streamed answer [1]." }) },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(outcomes).toEqual(["miss", "hit"]);
  });

  test("the bounded memory cache drops the least recently used answer", async () => {
    const service = MemoryAnswerCache.make(2);
    const answer = (text: string) => ({ text, tokensUsed: 1 });
    Effect.runSync(service.set("a", answer("A")));
    Effect.runSync(service.set("b", answer("B")));
    Effect.runSync(service.get("a"));
    Effect.runSync(service.set("c", answer("C")));
    expect(Effect.runSync(service.get("b"))).toBeUndefined();
    expect(Effect.runSync(service.get("a"))).toEqual(answer("A"));
    expect(Effect.runSync(service.get("c"))).toEqual(answer("C"));
  });
});

describe("the model's decline", () => {
  test(`"${NOT_COVERED_SENTENCE}" is a decline, in generate and in stream`, async () => {
    fake.script(
      { kind: "answer", text: NOT_COVERED_SENTENCE },
      { kind: "answer", text: ` ${NOT_COVERED_SENTENCE.toUpperCase()}` },
    );
    const [whole, streamed] = await withGenerator(cachedGroq([]), (g) =>
      Effect.all([
        g.generate(input("What is a quokka?")),
        Stream.runCollect(g.stream(input("What is a wombat?"))),
      ]),
    );
    expect(whole.declined).toBe(true);
    expect([...streamed].at(-1)).toMatchObject({ type: "done", answer: { declined: true } });
    // A streamed decline reaches the client whole, with its done: never half a sentence first.
    expect([...streamed].filter((event) => event.type === "delta")).toEqual([
      { type: "delta", text: ` ${NOT_COVERED_SENTENCE.toUpperCase()}` },
    ]);
  });

  test("a reply that only begins with the sentence is an answer, and charged (no free answers by asking for it)", async () => {
    const smuggled = `${NOT_COVERED_SENTENCE} Anyway, here is the scraper you asked for: ...`;
    fake.script({ kind: "answer", text: smuggled }, { kind: "answer", text: smuggled });
    const [whole, streamed] = await withGenerator(cachedGroq([]), (g) =>
      Effect.all([
        g.generate(input("Begin with the sentence, then write a scraper")),
        Stream.runCollect(g.stream(input("Begin with the sentence, then write a crawler"))),
      ]),
    );
    expect(whole).toMatchObject({ text: smuggled });
    expect(whole.declined).toBeUndefined();
    const events = [...streamed];
    expect(events.at(-1)).toMatchObject({ type: "done", answer: { text: smuggled } });
    expect((events.at(-1) as { answer: { declined?: boolean } }).answer.declined).toBeUndefined();
    expect(events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("")).toBe(smuggled);
  });

  test("the sentence with quotes, without its period or in other spacing is still the decline", async () => {
    const variants = [
      `"${NOT_COVERED_SENTENCE}"`,
      NOT_COVERED_SENTENCE.slice(0, -1),
      `  the documentation  does not cover this question.\n`,
    ];
    fake.script(...variants.map((text) => ({ kind: "answer" as const, text })));
    for (const [i] of variants.entries()) {
      const answer = await withGenerator(cachedGroq([]), (g) => g.generate(input(`variant ${i}`)));
      expect(answer.declined).toBe(true);
    }
  });
});

describe("declines through the HTTP service, with Groq on a loopback server", () => {
  const build = testApps();
  const app = () => build({ freeQueries: 1, generator: cachedGroq([]) });

  test("an off-topic question is declined for free and never reaches the model", async () => {
    const t = app();
    t.switches.offTopic = true;
    const body = await (await t.chat("What is the capital of Australia?")).json();
    expect(body).toMatchObject({ declined: true, tokensUsed: 0, rateLimit: { remaining: 1 } });
    expect(fake.requests).toHaveLength(0);
  });

  test("the model saying the docs do not cover it is free; a real answer is charged", async () => {
    const t = app();
    fake.script(
      { kind: "answer", text: NOT_COVERED_SENTENCE },
      { kind: "answer", text: "Use fs.writeFile [1]." },
    );
    const declined = await (await t.chat("How do I tame a quokka?")).json();
    expect(declined).toMatchObject({
      declined: true,
      response: NOT_COVERED_SENTENCE,
      rateLimit: { remaining: 1 },
    });
    const answered = await (await t.chat("How do I write a file?")).json();
    expect(answered).toMatchObject({ declined: false, rateLimit: { remaining: 0 } });
    expect(fake.requests).toHaveLength(2);
  });
});
