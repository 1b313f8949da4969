/**
 * spendQuestions on the memory store: the questions a priced call costs are counted only when
 * it is charged; a failure, a free outcome or too few questions left give every hold back.
 */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { spendQuestions } from "../../core/use-cases/spend-questions.ts";

const runtime = () =>
  ManagedRuntime.make(MemoryStore.layer({ freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 120_000 }));
const remaining = (identity: string) =>
  Effect.flatMap(QuotaStore, (quota) =>
    Effect.map(quota.view(identity, Date.now()), (view) => view.remaining),
  );

describe("spendQuestions", () => {
  test("a charged call counts its questions; the quota after is returned", async () => {
    const rt = runtime();
    const spent = await rt.runPromise(
      spendQuestions({ identity: "a" }, 2, Effect.succeed("done"), () => true),
    );
    expect(spent).toMatchObject({ value: "done", rateLimit: { remaining: 1 } });
    expect(await rt.runPromise(remaining("a"))).toBe(1);
  });

  test("a free outcome and a failure give every question back", async () => {
    const rt = runtime();
    await rt.runPromise(spendQuestions({ identity: "b" }, 3, Effect.succeed("miss"), () => false));
    expect(await rt.runPromise(remaining("b"))).toBe(3);
    const failed = await rt.runPromiseExit(
      spendQuestions({ identity: "b" }, 3, Effect.fail("boom"), () => true),
    );
    expect(Exit.isFailure(failed)).toBe(true);
    expect(await rt.runPromise(remaining("b"))).toBe(3);
  });

  test("too few left: exhausted, the work never runs, and the holds already taken are given back", async () => {
    const rt = runtime();
    let ran = false;
    const exit = await rt.runPromiseExit(
      spendQuestions(
        { identity: "c" },
        4,
        Effect.sync(() => (ran = true)),
        () => true,
      ),
    );
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("QuotaExhausted");
    expect(ran).toBe(false);
    expect(await rt.runPromise(remaining("c"))).toBe(3);
  });

  test("an interrupted call gives its questions back", async () => {
    const rt = runtime();
    const exit = await rt.runPromiseExit(spendQuestions({ identity: "d" }, 2, Effect.interrupt, () => true));
    expect(Exit.isFailure(exit)).toBe(true);
    expect(await rt.runPromise(remaining("d"))).toBe(3);
  });
});
