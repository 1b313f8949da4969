/**
 * A piece of work that costs `count` questions (an MCP tool priced above one question, or the
 * extra questions of one): the questions are held before it runs, counted when it succeeds and
 * `charged` says so, given back otherwise (it failed, was interrupted, or declined). Each hold
 * is one atomic reserve of the quota store; when the quota runs out part way, the holds already
 * taken are given back before the exhaustion is reported, so nothing is charged for a call that
 * did not run.
 */
import { Clock, Effect, Exit } from "effect";
import { QuotaStore } from "../ports/quota-store.ts";
import type { Hold, QuotaView } from "../quota.ts";
import { releaseHold } from "./prepare-answer.ts";

const releaseAll = (identity: string, holds: ReadonlyArray<Hold>) =>
  Effect.forEach(holds, (hold) => releaseHold(identity, hold), { discard: true });

const reserveAll = (identity: string, count: number) =>
  Effect.gen(function* () {
    const quota = yield* QuotaStore;
    const holds: Hold[] = [];
    for (let i = 0; i < count; i++) {
      const reserved = yield* quota
        .reserve(identity, yield* Clock.currentTimeMillis)
        .pipe(Effect.onError(() => releaseAll(identity, holds)));
      holds.push(reserved.hold);
    }
    return holds;
  });

export interface Spent<A> {
  readonly value: A;
  /** The quota after the holds were counted or given back; undefined when nothing was held. */
  readonly rateLimit: QuotaView | undefined;
}

export const spendQuestions = <A, E, R>(
  identity: string,
  count: number,
  work: Effect.Effect<A, E, R>,
  charged: (value: A) => boolean,
) =>
  Effect.gen(function* () {
    const quota = yield* QuotaStore;
    // Held questions are given back on failure, interruption or a free outcome; a charged
    // outcome keeps them for the commit below (an interruption in between lets them lapse,
    // which gives them back too).
    const used = yield* Effect.acquireUseRelease(
      reserveAll(identity, count),
      (holds) => Effect.map(work, (value) => ({ value, holds })),
      (holds, exit) =>
        Exit.isSuccess(exit) && charged(exit.value.value) ? Effect.void : releaseAll(identity, holds),
    );
    let rateLimit: QuotaView | undefined;
    if (charged(used.value))
      for (const hold of used.holds)
        rateLimit = yield* quota.commit(identity, hold.id, yield* Clock.currentTimeMillis);
    else if (used.holds.length > 0) rateLimit = yield* quota.view(identity, yield* Clock.currentTimeMillis);
    return { value: used.value, rateLimit } satisfies Spent<A>;
  });
