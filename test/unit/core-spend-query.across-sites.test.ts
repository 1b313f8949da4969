/**
 * How a question's hold meets the shared ceilings (core/use-cases/spend-query.ts): a free question
 * counted across sites is kept when it is committed, so a release after the commit gives nothing
 * back; the declines' check rides on the cross-site admit (one store call); a client past its
 * declines is refused with nothing left held or counted; and a decline the store fails to count is
 * still given back and answered.
 */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import { TestClock } from "effect/testing";
import { makeMemoryCeilingCounter } from "../../adapters/store-memory/ceilings/memory-ceiling-counter.ts";
import { windowCounter, windowMembersCounter } from "../../core/ceilings/counters.ts";
import { CeilingCounter, type Counter } from "../../core/ports/ceiling-counter.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { askQuestion, DECLINED } from "../../core/use-cases/ask-question.ts";
import { reserveQuery, settleQuery } from "../../core/use-cases/spend-query.ts";
import { FIXED_NOW, makeWorld, type World, worldLayer } from "../support/use-case-layers.ts";

const IDENTITY = "203.0.113.7";
/** The client's free questions across sites on the day of `at` (the member and limit do not name the key). */
const across = (at: number) => windowMembersCounter("free-questions-across-sites", IDENTITY, "", 20, at);
/** The client's declines on the day of `at`. */
const declines = (at: number, limit: number) => windowCounter("declines-per-client", IDENTITY, limit, at);

/** The memory counter, recording the kinds of each admit and failing the ones `fails` picks. */
const recordingCounter = (fails: (counters: ReadonlyArray<Counter>) => boolean = () => false) => {
  const inner = makeMemoryCeilingCounter().counter;
  const admits: string[][] = [];
  const counter = CeilingCounter.of({
    ...inner,
    admit: (counters, now) => {
      admits.push(counters.map((each) => `${each.ceiling}:${each.kind}`));
      return fails(counters)
        ? Effect.fail(new StoreUnavailable({ reason: "the counter's store is down" }))
        : inner.admit(counters, now);
    },
  });
  return { counter, admits, inner };
};

/** Runs `effect` in `w`'s world at FIXED_NOW (the world's quota is at that time), `counter` counting. */
const run = <A, E, R>(w: World, counter: CeilingCounter["Service"], effect: Effect.Effect<A, E, R>) =>
  Effect.runPromiseExit(
    Effect.andThen(TestClock.setTime(FIXED_NOW), effect).pipe(
      Effect.provideService(CeilingCounter, counter),
      Effect.provide(Layer.merge(worldLayer(w), TestClock.layer())),
    ) as Effect.Effect<A, E>,
  );

const question = (message: string) => ({ identity: IDENTITY, message, conversationId: undefined });
const used = (counter: CeilingCounter["Service"], of: Counter) =>
  Effect.runPromise(counter.used(of, FIXED_NOW));

describe("a question's hold and the shared ceilings", () => {
  test("a free question committed, then released by mistake, keeps its count across sites", async () => {
    const w = makeWorld();
    const { counter } = recordingCounter();
    const spender = { identity: IDENTITY };
    const exit = await run(
      w,
      counter,
      Effect.gen(function* () {
        const held = yield* reserveQuery(spender, FIXED_NOW);
        yield* settleQuery(spender, held, "commit", FIXED_NOW);
        yield* settleQuery(spender, held, "release", FIXED_NOW);
        return held.hold.bucket;
      }),
    );
    expect(exit).toEqual(Exit.succeed("free"));
    expect(await used(counter, across(FIXED_NOW))).toBe(1);
    expect(w.quota.freeUsed).toBe(1);
  });

  test("a free question's declines check and cross-site count are one store call", async () => {
    const w = makeWorld();
    const { counter, admits } = recordingCounter();
    const exit = await run(w, counter, askQuestion(question("How do I write a file?")));
    if (Exit.isFailure(exit)) throw new Error(`failed: ${exit.cause}`);
    expect(admits).toEqual([["declines-per-client:check", "free-questions-across-sites:distinct"]]);
    expect(await used(counter, across(FIXED_NOW))).toBe(1);
  });

  test("past its declines a client is refused before retrieval, nothing held or counted across sites", async () => {
    const w = makeWorld();
    const { counter } = recordingCounter();
    await Effect.runPromise(counter.admit([declines(FIXED_NOW, 1)], FIXED_NOW));
    const limited = CeilingCounter.of({
      ...counter,
      admit: (counters, now) =>
        counter.admit(
          counters.map((each) => (each.ceiling === "declines-per-client" ? { ...each, limit: 1 } : each)),
          now,
        ),
    });
    const exit = await run(w, limited, askQuestion(question("How do I write a file?")));
    expect(Option.getOrUndefined(Exit.findErrorOption(exit))?._tag).toBe("TooManyDeclines");
    expect(w.calls).toEqual(["reserve", "release"]);
    expect(w.quota.holds).toEqual([]);
    expect(await used(counter, across(FIXED_NOW))).toBe(0);
  });

  test("a decline the store fails to count is still answered, and its question given back everywhere", async () => {
    const w = makeWorld();
    w.retrieval = "off-topic";
    const { counter, inner } = recordingCounter((counters) =>
      counters.some((each) => each.ceiling === "declines-per-client" && each.kind === "count"),
    );
    const exit = await run(w, counter, askQuestion(question("What is an unladen swallow?")));
    if (Exit.isFailure(exit)) throw new Error(`failed: ${exit.cause}`);
    expect(exit.value.answer).toEqual(DECLINED);
    expect(w.quota.holds).toEqual([]);
    expect(await used(inner, across(FIXED_NOW))).toBe(0);
  });
});
