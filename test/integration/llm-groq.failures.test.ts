/** How the Groq generator retries, gives up and times out, through the real groq-sdk client. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import * as Stream from "effect/Stream";
import * as GroqGenerator from "../../adapters/llm-groq/index.ts";
import type { AnswerEvent, GenerationInput } from "../../core/ports/generator.ts";
import { type FakeGroq, startFakeGroq } from "../support/fake-groq.ts";
import { freePort } from "../support/free-port.ts";
import { FS_CHUNKS } from "../support/llm-fixtures.ts";

let fake: FakeGroq;
beforeAll(async () => {
  fake = await startFakeGroq();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

const generator = (overrides: Partial<GroqGenerator.GroqOptions> = {}) =>
  Effect.runPromise(
    GroqGenerator.make({
      apiKey: Redacted.make(fake.apiKey),
      model: "llama-3.1-8b-instant",
      baseUrl: fake.baseUrl,
      timeoutMs: 400,
      retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 200 },
      ...overrides,
    }),
  );
const input: GenerationInput = { question: "How do I write a file?", chunks: FS_CHUNKS, history: [] };
const generateError = async (overrides: Partial<GroqGenerator.GroqOptions> = {}) => {
  const error = await Effect.runPromise(Effect.flip((await generator(overrides)).generate(input)));
  expect(error._tag).toBe("GenerationFailed");
  expect(error.message).not.toContain(fake.apiKey);
  return error;
};
const streamExit = async () =>
  Effect.runPromise(Effect.exit(Stream.runCollect((await generator()).stream(input))));

describe("Groq generator, failures", () => {
  test("429 with a short retry-after is retried, then the answer arrives", async () => {
    fake.script(
      { kind: "status", status: 429, headers: { "retry-after": "0" } },
      { kind: "answer", text: "Fine [1]." },
    );
    const answer = await Effect.runPromise((await generator()).generate(input));
    expect(answer.text).toBe("Fine [1].");
    expect(fake.requests).toHaveLength(2);
  });

  test("429 asking to wait longer than the budget is not waited for", async () => {
    fake.script({ kind: "status", status: 429, headers: { "retry-after": "60" } });
    const error = await generateError();
    expect(error.message).toContain("429");
    expect(fake.requests).toHaveLength(1);
  });

  test("500 every time: 1 + 2 retries, then GenerationFailed", async () => {
    fake.script(...Array.from({ length: 5 }, () => ({ kind: "status", status: 500 }) as const));
    const error = await generateError();
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("3 attempts");
    expect(fake.requests).toHaveLength(3);
  });

  test("503 once, then success", async () => {
    fake.script({ kind: "status", status: 503 }, { kind: "answer", text: "Recovered [2]." });
    expect((await Effect.runPromise((await generator()).generate(input))).text).toBe("Recovered [2].");
    expect(fake.requests).toHaveLength(2);
  });

  test("401 (bad key) is not retried, and the key is not in the message", async () => {
    const error = await generateError({ apiKey: Redacted.make("gsk_wrong_secret_value") });
    expect(error.message).toContain("401");
    expect(error.message).not.toContain("gsk_wrong_secret_value");
    expect(fake.requests).toHaveLength(1);
  });

  test("400 is not retried", async () => {
    fake.script({ kind: "status", status: 400 });
    expect((await generateError()).message).toContain("HTTP 400");
    expect(fake.requests).toHaveLength(1);
  });

  test("malformed JSON body: GenerationFailed", async () => {
    fake.script({ kind: "malformed" });
    expect((await generateError()).message).toContain("malformed");
  });

  test("JSON that is not a chat completion: GenerationFailed", async () => {
    fake.script({ kind: "wrong-shape" });
    expect((await generateError()).message).toContain("not a chat completion");
  });

  test("an empty answer is a failure, not a charged reply", async () => {
    fake.script({ kind: "answer", text: "   " });
    expect((await generateError()).message).toContain("empty answer");
  });

  test("no reply within the timeout: GenerationFailed, not retried", async () => {
    fake.script({ kind: "hang" });
    expect((await generateError()).message).toContain("timed out");
    expect(fake.requests).toHaveLength(1);
  });

  test("nothing listening: connection errors are retried, then GenerationFailed", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const error = await generateError({ baseUrl: closed });
    expect(error.message).toContain("could not reach");
    expect(error.message).toContain("after 3 attempts");
  });

  test("stream: a 500 before the stream opens is retried", async () => {
    fake.script({ kind: "status", status: 500 }, { kind: "answer", text: "Streamed [1]." });
    const events = await Effect.runPromise(Stream.runCollect((await generator()).stream(input)));
    expect([...events].at(-1)).toEqual({ type: "done", answer: { text: "Streamed [1].", tokensUsed: 150 } });
    expect(fake.requests).toHaveLength(2);
  });

  test("stream: silence mid-answer fails after the deltas already sent, with no done", async () => {
    fake.script({ kind: "stall-mid-stream", deltas: ["Half ", "an "] });
    const seen: AnswerEvent[] = [];
    const stream = (await generator()).stream(input);
    const error = await Effect.runPromise(
      Effect.flip(Stream.runForEach(stream, (e) => Effect.sync(() => seen.push(e)))),
    );
    expect(error.message).toContain("stopped sending mid-answer");
    expect(seen).toEqual([
      { type: "delta", text: "Half " },
      { type: "delta", text: "an " },
    ]);
  });

  test("stream: an error event mid-answer fails the stream", async () => {
    fake.script({ kind: "error-mid-stream", deltas: ["Half "] });
    const exit = await streamExit();
    expect(exit._tag).toBe("Failure");
    expect(String(exit)).toContain("GenerationFailed");
  });

  test("stream: a chunk that is not JSON fails the stream", async () => {
    fake.script({ kind: "malformed" });
    const exit = await streamExit();
    expect(exit._tag).toBe("Failure");
    expect(String(exit)).toContain("malformed");
  });

  test("stream: 401 fails at once", async () => {
    fake.script({ kind: "status", status: 401 });
    const exit = await streamExit();
    expect(String(exit)).toContain("401");
    expect(fake.requests).toHaveLength(1);
  });
});
