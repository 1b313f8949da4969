/**
 * Bounded retry with exponential back-off and full jitter, honouring the provider's
 * `retry-after` only while it fits the budget: a longer wait would blow the answer's latency,
 * so we give up at once and let the fallback answer instead.
 */
import { Effect, Random } from "effect";
import type { ProviderFailure } from "./provider-failure.ts";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  readonly baseDelayMs: number;
  /** Longest single wait, including a server's `retry-after`. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 200, maxDelayMs: 2000 };

/** The wait before retry number `retry` (0-based), or undefined when we should stop. */
export const retryDelay = (
  policy: RetryPolicy,
  retry: number,
  failure: ProviderFailure,
  random: number,
): number | undefined => {
  if (!failure.retryable || retry >= policy.retries) return undefined;
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxDelayMs) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = ceiling / 2 + (random * ceiling) / 2;
  return Math.max(failure.retryAfterMs ?? 0, Math.round(jittered));
};

/** Runs `attempt` until it succeeds, fails for good, or the policy is spent. */
export const withRetry = <A>(
  policy: RetryPolicy,
  attempt: Effect.Effect<A, ProviderFailure>,
): Effect.Effect<A, { readonly failure: ProviderFailure; readonly attempts: number }> => {
  const loop = (
    retry: number,
  ): Effect.Effect<A, { readonly failure: ProviderFailure; readonly attempts: number }> =>
    attempt.pipe(
      Effect.catch((failure) =>
        Effect.flatMap(Random.next, (random) => {
          const delay = retryDelay(policy, retry, failure, random);
          return delay === undefined
            ? Effect.fail({ failure, attempts: retry + 1 })
            : Effect.andThen(Effect.sleep(delay), loop(retry + 1));
        }),
      ),
    );
  return loop(0);
};
