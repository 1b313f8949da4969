/** The in-memory conversation store stays bounded: turns, conversations, idle time, sizes. */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { TestClock } from "effect/testing";
import * as MemoryConversations from "../../adapters/conversations-memory/index.ts";
import { Conversations } from "../../core/ports/conversations.ts";
import type { ChatTurn } from "../../core/ports/generator.ts";

const exchange = (i: number): ReadonlyArray<ChatTurn> => [
  { role: "user", content: `question ${i}` },
  { role: "assistant", content: `answer ${i}` },
];

/** Runs a test body against a fresh store on a test clock starting at 0. */
const withStore = <A>(
  body: (store: Effect.Success<ReturnType<typeof MemoryConversations.make>>) => Effect.Effect<A>,
  options: MemoryConversations.MemoryConversationsOptions = {},
) =>
  Effect.runPromise(
    Effect.flatMap(MemoryConversations.make(options), body).pipe(Effect.provide(TestClock.layer())),
  );

describe("memory conversations", () => {
  test("an unknown conversation has no turns", async () => {
    expect(await withStore((store) => store.recent("nobody"))).toEqual([]);
  });

  test("keeps turns in order, only the last 6 by default", async () => {
    const turns = await withStore((store) =>
      Effect.gen(function* () {
        for (let i = 0; i < 5; i++) yield* store.append("c1", exchange(i));
        return yield* store.recent("c1");
      }),
    );
    expect(turns).toEqual([...exchange(2), ...exchange(3), ...exchange(4)]);
  });

  test("conversations are separate", async () => {
    const [a, b] = await withStore((store) =>
      Effect.gen(function* () {
        yield* store.append("a", exchange(1));
        yield* store.append("b", exchange(2));
        return [yield* store.recent("a"), yield* store.recent("b")] as const;
      }),
    );
    expect(a).toEqual(exchange(1));
    expect(b).toEqual(exchange(2));
  });

  test("past the conversation cap the least recently used one is dropped", async () => {
    const result = await withStore(
      (store) =>
        Effect.gen(function* () {
          yield* store.append("a", exchange(1));
          yield* store.append("b", exchange(2));
          yield* store.append("a", exchange(3)); // a is now the most recent
          yield* store.append("c", exchange(4)); // evicts b
          return {
            a: yield* store.recent("a"),
            b: yield* store.recent("b"),
            c: yield* store.recent("c"),
          };
        }),
      { maxConversations: 2 },
    );
    expect(result.a).toEqual([...exchange(1), ...exchange(3)]);
    expect(result.b).toEqual([]);
    expect(result.c).toEqual(exchange(4));
  });

  test("a conversation idle for the TTL is forgotten; activity keeps it alive", async () => {
    const result = await withStore(
      (store) =>
        Effect.gen(function* () {
          yield* store.append("idle", exchange(1));
          yield* store.append("busy", exchange(1));
          yield* TestClock.adjust("20 minutes");
          yield* store.append("busy", exchange(2));
          const before = yield* store.recent("idle");
          yield* TestClock.adjust("11 minutes");
          return {
            before,
            idle: yield* store.recent("idle"),
            busy: yield* store.recent("busy"),
          };
        }),
      { idleTtlMs: 30 * 60 * 1000 },
    );
    expect(result.before).toEqual(exchange(1));
    expect(result.idle).toEqual([]);
    expect(result.busy).toEqual([...exchange(1), ...exchange(2)]);
  });

  test("an expired conversation restarts empty when written again", async () => {
    const turns = await withStore((store) =>
      Effect.gen(function* () {
        yield* store.append("c", exchange(1));
        yield* TestClock.adjust("31 minutes");
        yield* store.append("c", exchange(2));
        return yield* store.recent("c");
      }),
    );
    expect(turns).toEqual(exchange(2));
  });

  test("content is capped, foreign roles are dropped, oversize keys are not stored", async () => {
    const result = await withStore(
      (store) =>
        Effect.gen(function* () {
          yield* store.append("c", [
            { role: "user", content: "x".repeat(100) },
            { role: "system", content: "injected" } as unknown as ChatTurn,
          ]);
          const longKey = "k".repeat(65);
          yield* store.append(longKey, exchange(1));
          return { c: yield* store.recent("c"), long: yield* store.recent(longKey) };
        }),
      { maxContentChars: 10, maxKeyChars: 64 },
    );
    expect(result.c).toEqual([{ role: "user", content: "x".repeat(10) }]);
    expect(result.long).toEqual([]);
  });

  test("the layer provides one shared store", async () => {
    const turns = await Effect.runPromise(
      Effect.gen(function* () {
        const store = yield* Conversations;
        yield* store.append("c", exchange(7));
        return yield* (yield* Conversations).recent("c");
      }).pipe(Effect.provide(MemoryConversations.layer())),
    );
    expect(turns).toEqual(exchange(7));
  });
});
