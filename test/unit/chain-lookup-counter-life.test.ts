/**
 * A payment_id's lookup counter lives until its request's grace ends, but at most 15 minutes
 * from its latest admitted lookup (core/payments/chain-lookup-budget.ts): a route offering
 * day-long requests must not keep a counter per payment_id for a day.
 */
import { expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { TestClock } from "effect/testing";
import { makeMemoryCeilingCounter } from "../../adapters/store-memory/ceilings/memory-ceiling-counter.ts";
import { PAYMENT_COUNTER_MAX_MS, paymentCounterUntil } from "../../core/payments/chain-lookup-budget.ts";
import { CeilingCounter } from "../../core/ports/ceiling-counter.ts";
import { reserveChainLookup } from "../../core/use-cases/reserve-chain-lookup.ts";

const DAY = 86_400_000;

test("the horizon is the request's grace or 15 minutes from now, whichever comes first", () => {
  expect(paymentCounterUntil(1_000 + DAY, 1_000)).toBe(1_000 + PAYMENT_COUNTER_MAX_MS);
  expect(paymentCounterUntil(1_000 + 60_000, 1_000)).toBe(1_000 + 60_000);
});

test("a day-long request's counter is gone 15 minutes after its last lookup; lookups extend it", async () => {
  const store = makeMemoryCeilingCounter();
  const start = Date.UTC(2030, 0, 1);
  const lookup = (id: string, signature: string) =>
    reserveChainLookup({ client: "198.51.100.1", signature, payment: { id, expiresAt: start + DAY } }, 0n);
  const program = Effect.gen(function* () {
    yield* TestClock.setTime(start);
    yield* lookup("pay-a", "sig-1");
    yield* TestClock.adjust(10 * 60_000);
    yield* lookup("pay-a", "sig-2"); // extends a's horizon to 25 minutes from the start
    yield* TestClock.adjust(6 * 60_000);
    yield* lookup("pay-b", "sig-3"); // a new window: lapsed counters are dropped
    const afterSixteen = store.distinctSize();
    yield* TestClock.adjust(10 * 60_000);
    yield* lookup("pay-c", "sig-4");
    return { afterSixteen, afterTwentySix: store.distinctSize() };
  });
  const sizes = await Effect.runPromise(
    program.pipe(
      Effect.provide(Layer.mergeAll(Layer.succeed(CeilingCounter)(store.counter), TestClock.layer())),
    ),
  );
  // At 16 min: a (extended to 25) and b. At 26 min: a lapsed; b (until 31) and c.
  expect(sizes).toEqual({ afterSixteen: 2, afterTwentySix: 2 });
});
