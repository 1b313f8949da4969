import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Option from "effect/Option";
import { view } from "../../core/quota.ts";
import {
  askQuestion,
  DECLINED,
  MAX_MESSAGE_LENGTH,
  type Question,
  TOP_K,
} from "../../core/use-cases/ask-question.ts";
import { followUpQuery } from "../../core/use-cases/follow-up.ts";
import { CHUNKS, FIXED_NOW, LIMITS, makeWorld, type World, worldLayer } from "../support/use-case-layers.ts";

const question = (message: string, conversationId?: string): Question => ({
  identity: "203.0.113.7",
  message,
  conversationId,
});
const run = (w: World, q: Question) =>
  Effect.runPromiseExit(askQuestion(q).pipe(Effect.provide(worldLayer(w))));
const remaining = (w: World) => view(w.quota, FIXED_NOW, LIMITS).remaining;
const failureTag = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
  Exit.isSuccess(exit) ? "success" : (Option.getOrUndefined(Exit.findErrorOption(exit))?._tag ?? "defect");

describe("askQuestion", () => {
  test("reserves, retrieves 5 passages, generates, then commits: one query spent", async () => {
    const w = makeWorld();
    const exit = await run(w, question("  How do I write a file?  "));
    if (Exit.isFailure(exit)) throw new Error("failed");
    expect(TOP_K).toBe(5);
    expect(exit.value.sources).toEqual(CHUNKS.slice(0, 5));
    expect(exit.value.answer).toEqual({ text: "answer to How do I write a file? [1]", tokensUsed: 42 });
    expect(exit.value.rateLimit.remaining).toBe(2);
    expect(w.calls).toEqual(["reserve", "retrieve(5):How do I write a file?", "generate:5:0", "commit"]);
    expect(remaining(w)).toBe(2);
  });

  test("empty or blank messages fail before the quota is touched", async () => {
    for (const message of ["", "   ", "\n\t"]) {
      const w = makeWorld();
      expect(failureTag(await run(w, question(message)))).toBe("EmptyMessage");
      expect(w.calls).toEqual([]);
    }
  });

  test(`messages longer than ${MAX_MESSAGE_LENGTH} characters are refused, the limit itself is fine`, async () => {
    const w = makeWorld();
    expect(failureTag(await run(w, question("a".repeat(MAX_MESSAGE_LENGTH + 1))))).toBe("MessageTooLong");
    expect(w.calls).toEqual([]);
    expect(failureTag(await run(w, question("a".repeat(MAX_MESSAGE_LENGTH))))).toBe("success");
  });

  test("exhausted quota fails with QuotaExhausted and never retrieves", async () => {
    const w = makeWorld();
    for (let i = 0; i < LIMITS.freePerDay; i++) await run(w, question(`q${i}`));
    w.calls.length = 0;
    expect(failureTag(await run(w, question("one more")))).toBe("QuotaExhausted");
    expect(w.calls).toEqual(["reserve"]);
  });

  test("a retrieval failure releases the hold: the failed answer costs nothing", async () => {
    const w = makeWorld();
    w.retrieval = "fail";
    expect(failureTag(await run(w, question("q")))).toBe("RetrievalFailed");
    expect(w.calls).toEqual(["reserve", "retrieve(5):q", "release"]);
    expect(remaining(w)).toBe(3);
    expect(w.quota.holds).toEqual([]);
  });

  for (const [retrieval, why] of [
    ["empty", "no passage found"],
    ["off-topic", "passages that miss the question"],
  ] as const)
    test(`${why}: declined for free, the model is never called`, async () => {
      const w = makeWorld();
      w.retrieval = retrieval;
      const exit = await run(w, question("What is the airspeed of an unladen swallow?"));
      if (Exit.isFailure(exit)) throw new Error("failed");
      expect(exit.value.answer).toEqual(DECLINED);
      expect(exit.value.answer.declined).toBe(true);
      // The closest passages (none when nothing was found) go with the decline.
      expect(exit.value.sources).toEqual(retrieval === "empty" ? [] : CHUNKS.slice(0, 5));
      expect(exit.value.rateLimit.remaining).toBe(3);
      expect(w.calls.map((call) => call.split("(")[0])).toEqual(["reserve", "retrieve", "release"]);
      expect(w.quota.holds).toEqual([]);
    });

  test("a model that says the docs do not cover it: the answer is given, the query released", async () => {
    const w = makeWorld();
    w.generation = "declines";
    const exit = await run(w, question("How do I write a file?"));
    if (Exit.isFailure(exit)) throw new Error("failed");
    expect(exit.value.answer.declined).toBe(true);
    expect(exit.value.rateLimit.remaining).toBe(3);
    expect(w.calls.at(-1)).toBe("release");
    expect(w.conversations.size).toBe(0);
  });

  test("a generation failure releases the hold", async () => {
    const w = makeWorld(1);
    w.generation = "fail";
    expect(failureTag(await run(w, question("q")))).toBe("GenerationFailed");
    expect(w.calls.at(-1)).toBe("release");
    expect(remaining(w)).toBe(4);
  });

  test("an interrupted answer (client gone) releases the hold", async () => {
    const w = makeWorld();
    w.generation = "hang";
    await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(askQuestion(question("q")).pipe(Effect.provide(worldLayer(w))));
        while (!w.calls.some((call) => call.startsWith("generate"))) yield* Effect.yieldNow;
        yield* Fiber.interrupt(fiber);
      }),
    );
    expect(w.calls.at(-1)).toBe("release");
    expect(remaining(w)).toBe(3);
  });

  test("conversations are kept per identity and feed follow-up retrieval", async () => {
    const w = makeWorld();
    await run(w, question("How do I delete a file in Node?", "conv-1"));
    await run(w, question("and what about it with promises?", "conv-1"));
    expect([...w.conversations.keys()]).toEqual(["203.0.113.7:conv-1"]);
    expect(w.conversations.get("203.0.113.7:conv-1")?.length).toBe(4);
    expect(w.calls).toContain(
      "retrieve(5):How do I delete a file in Node?\nand what about it with promises?",
    );
    expect(w.calls).toContain("generate:5:2");
  });
});

describe("followUpQuery", () => {
  const history = [
    { role: "user" as const, content: "How do I read a file?" },
    { role: "assistant" as const, content: "Use fs.readFile [1]." },
  ];
  test("short dependent questions carry the previous user question", () => {
    expect(followUpQuery("and how do I delete it?", history)).toBe(
      "How do I read a file?\nand how do I delete it?",
    );
    expect(followUpQuery("What about streams?", history)).toBe("How do I read a file?\nWhat about streams?");
  });
  test("standalone questions, long questions and empty history are searched as they are", () => {
    expect(followUpQuery("How do I spawn a child process?", history)).toBe("How do I spawn a child process?");
    const long =
      "and it also needs to handle thirteen different encodings including utf16le and latin1 please";
    expect(followUpQuery(long, history)).toBe(long);
    expect(followUpQuery("and it?", [])).toBe("and it?");
  });
});
