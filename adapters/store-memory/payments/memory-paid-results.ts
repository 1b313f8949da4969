/**
 * PaidResults in one process: a Map in the order results were kept, at most `maxResults` of
 * them (the oldest dropped first), each forgotten after its retention.
 */
import * as Effect from "effect/Effect";
import {
  MAX_PAID_RESULTS,
  PAID_RESULT_RETENTION_MS,
  type PaidResult,
} from "../../../core/payments/payment-identifier.ts";
import { PaidResults } from "../../../core/ports/paid-results.ts";

export const makeMemoryPaidResults = (maxResults = MAX_PAID_RESULTS) => {
  const results = new Map<string, PaidResult>();
  // The newest `now` callers passed in: the sweeper's clock, so it agrees with the callers'.
  let latest = 0;
  const live = (key: string, now: number) => {
    latest = Math.max(latest, now);
    const kept = results.get(key);
    if (kept === undefined || now - kept.keptAt < PAID_RESULT_RETENTION_MS) return kept;
    results.delete(key);
    return undefined;
  };
  return {
    results: PaidResults.of({
      find: (key, now) => Effect.sync(() => live(key, now)),
      keep: (key, result, now) =>
        Effect.sync(() => {
          const kept = live(key, now);
          if (kept !== undefined) return kept;
          results.set(key, result);
          while (results.size > maxResults) results.delete(results.keys().next().value!);
          return result;
        }),
    }),
    /** Drops what outlived its retention (the sweeper). */
    sweep: (now: number = latest) => {
      for (const [key, kept] of results)
        if (now - kept.keptAt >= PAID_RESULT_RETENTION_MS) results.delete(key);
        else break;
    },
    size: () => results.size,
  };
};
