/**
 * A piece of work that costs `count` questions (an MCP tool priced above one question, or the
 * extra questions of one): the questions are held before it runs, counted when it succeeds and
 * `charged` says so, given back otherwise (it failed, was interrupted, or declined). Each hold
 * is one atomic reserve, on the spender's wallet first, then its identity's quota
 * (spend-query.ts); when the questions run out part way, the holds already taken are given
 * back before the exhaustion is reported, so nothing is charged for a call that did not run.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type { QuotaView } from "../quota.ts";
import { type HeldQuery, reserveQuery, type Spender, settleQuery, spenderView } from "./spend-query.ts";

/** Gives every hold back; a failure to do so only delays it (the hold lapses). */
const releaseAll = (spender: Spender, holds: ReadonlyArray<HeldQuery>) =>
  Effect.forEach(
    holds,
    (held) =>
      Effect.ignore(
        Effect.flatMap(Clock.currentTimeMillis, (now) => settleQuery(spender, held, "release", now)),
      ),
    { discard: true },
  );

const reserveAll = (spender: Spender, count: number) =>
  Effect.gen(function* () {
    const holds: HeldQuery[] = [];
    for (let i = 0; i < count; i++) {
      const held = yield* reserveQuery(spender, yield* Clock.currentTimeMillis).pipe(
        Effect.onError(() => releaseAll(spender, holds)),
      );
      holds.push(held);
    }
    return holds;
  });

export interface Spent<A> {
  readonly value: A;
  /** What the spender sees after the holds were counted or given back; undefined when nothing was held. */
  readonly rateLimit: QuotaView | undefined;
}

export const spendQuestions = <A, E, R>(
  spender: Spender,
  count: number,
  work: Effect.Effect<A, E, R>,
  charged: (value: A) => boolean,
) =>
  Effect.gen(function* () {
    // Held questions are given back on failure, interruption or a free outcome; a charged
    // outcome keeps them for the commit below (an interruption in between lets them lapse,
    // which gives them back too).
    const used = yield* Effect.acquireUseRelease(
      reserveAll(spender, count),
      (holds) => Effect.map(work, (value) => ({ value, holds })),
      (holds, exit) =>
        Exit.isSuccess(exit) && charged(exit.value.value) ? Effect.void : releaseAll(spender, holds),
    );
    let rateLimit: QuotaView | undefined;
    if (charged(used.value))
      for (const held of used.holds)
        rateLimit = yield* settleQuery(spender, held, "commit", yield* Clock.currentTimeMillis);
    else if (used.holds.length > 0) rateLimit = yield* spenderView(spender, yield* Clock.currentTimeMillis);
    return { value: used.value, rateLimit } satisfies Spent<A>;
  });
