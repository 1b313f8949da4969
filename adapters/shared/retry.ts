/**
 * A call to an outside system (Solana RPC, Chroma, the LLM provider) that survives short
 * outages: each attempt has a time limit, the adapter classifies every failure as worth
 * another try or final, and retryable ones are tried again after an exponential, jittered
 * wait. A server's `retry-after` is honoured only while it fits the longest wait: a longer
 * one means giving up at once, so a caller with a fallback can use it instead of waiting.
 */
import * as Clock from "effect/Clock";
import type * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Random from "effect/Random";
import * as Schedule from "effect/Schedule";

/** What the adapter's classification says about one failed attempt. */
export interface Retryable {
  readonly retryable: boolean;
  /** The wait the server asked for (`retry-after`), in ms. */
  readonly retryAfterMs?: number | undefined;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  /** The first wait's ceiling; it doubles per retry. */
  readonly baseDelayMs: number;
  /** Longest single wait, a server's `retry-after` included (Infinity: no cap). */
  readonly maxDelayMs: number;
}

/** A failure that ended the call, with the number of attempts made. */
export interface GaveUp<E> {
  readonly failure: E;
  readonly attempts: number;
}

const shouldRetry = (policy: RetryPolicy, retry: number, failure: Retryable): boolean =>
  failure.retryable &&
  retry < policy.retries &&
  !(failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxDelayMs);

// Equal jitter: uniform in [ceiling / 2, ceiling]. Callers failing together spread out, yet no
// wait shrinks to nothing (as full jitter's can) and hits a struggling server at once.
const waitMs = (policy: RetryPolicy, retry: number, failure: Retryable, random: number): number => {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = ceiling / 2 + (random * ceiling) / 2;
  return Math.max(failure.retryAfterMs ?? 0, Math.round(jittered));
};

/** The wait before retry number `retry` (0-based) for `random` in [0, 1), or undefined to stop. */
export const retryDelay = (
  policy: RetryPolicy,
  retry: number,
  failure: Retryable,
  random: number,
): number | undefined =>
  shouldRetry(policy, retry, failure) ? waitMs(policy, retry, failure, random) : undefined;

/** `retryDelay` as a Schedule over the failures: it stops where `retryDelay` says stop. */
export const backoff = <E extends Retryable>(policy: RetryPolicy): Schedule.Schedule<number, E> =>
  Schedule.forever.pipe(
    Schedule.while(({ input, attempt }: Schedule.Metadata<number, E>) =>
      shouldRetry(policy, attempt - 1, input),
    ),
    Schedule.modifyDelay(({ input, attempt }: Schedule.Metadata<number, E>) =>
      Effect.map(Random.next, (random) => waitMs(policy, attempt - 1, input, random)),
    ),
  );

/** Runs `attempt` again under `policy` while its failures are retryable. */
export const withRetry =
  (policy: RetryPolicy) =>
  <A, E extends Retryable, R>(attempt: Effect.Effect<A, E, R>): Effect.Effect<A, GaveUp<E>, R> =>
    Effect.suspend(() => {
      let attempts = 0;
      const counted = Effect.suspend(() => {
        attempts += 1;
        return attempt;
      });
      return counted.pipe(
        Effect.retry(backoff<E>(policy)),
        Effect.mapError((failure) => ({ failure, attempts })),
      );
    });

export interface AttemptOptions<A, E> {
  /** The request; it must stop when `signal` aborts (the attempt timed out or was interrupted). */
  readonly try: (signal: AbortSignal) => PromiseLike<A>;
  /** What a thrown value means; `nowMs` (the Effect clock's) dates a `retry-after`. */
  readonly classify: (cause: unknown, nowMs: number) => E;
  /** Per attempt. */
  readonly timeout: Duration.Input;
  /** The failure when `timeout` passes without a reply. */
  readonly onTimeout: () => E;
}

/** One attempt: the request, its failure classified, bounded by `timeout`. */
export const timedAttempt = <A, E>(options: AttemptOptions<A, E>): Effect.Effect<A, E> =>
  Effect.tryPromise({ try: options.try, catch: (cause) => cause }).pipe(
    Effect.catch((cause) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) => Effect.fail(options.classify(cause, nowMs))),
    ),
    Effect.timeoutOrElse({ duration: options.timeout, orElse: () => Effect.fail(options.onTimeout()) }),
  );

/** `timedAttempt`, retried under `policy`: the whole resilient call. */
export const callWithRetry = <A, E extends Retryable>(
  options: AttemptOptions<A, E> & { readonly policy: RetryPolicy },
): Effect.Effect<A, GaveUp<E>> => withRetry(options.policy)(timedAttempt(options));
