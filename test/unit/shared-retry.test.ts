/**
 * The retry helper the Solana, Chroma and Groq adapters share: the back-off schedule, attempt
 * counting, and one time-limited, classified attempt.
 */
import { describe, expect, test } from "bun:test";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Schedule from "effect/Schedule";
import {
  backoff,
  callWithRetry,
  type Retryable,
  timedAttempt,
  withRetry,
} from "../../adapters/shared/retry.ts";

interface Failure extends Retryable {
  readonly name: string;
}

const retryable = (name = "busy", retryAfterMs?: number): Failure => ({
  name,
  retryable: true,
  retryAfterMs,
});
const final = (name = "bad"): Failure => ({ name, retryable: false });

/** The waits the schedule gives for these failures in turn, until it stops. */
const waits = (policy: Parameters<typeof backoff>[0], failures: ReadonlyArray<Failure>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const step = yield* Schedule.toStep(backoff<Failure>(policy));
      const out: number[] = [];
      for (const failure of failures) {
        const next = yield* Effect.exit(step(0, failure));
        if (Exit.isFailure(next)) break;
        out.push(Duration.toMillis(next.value[1]));
      }
      return out;
    }),
  );

/** An attempt that fails with `failures` in turn, then succeeds with "ok"; counts its runs. */
const scripted = (failures: ReadonlyArray<Failure>) => {
  let runs = 0;
  const effect = Effect.suspend(() => {
    const failure = failures[runs];
    runs += 1;
    return failure === undefined ? Effect.succeed("ok") : Effect.fail(failure);
  });
  return { effect, runs: () => runs };
};

const FAST = { retries: 3, baseDelayMs: 1, maxDelayMs: 10 };

describe("backoff", () => {
  test("doubling ceilings with each wait in their upper half; stops once the retries are spent", async () => {
    const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: Infinity };
    const delays = await waits(
      policy,
      Array.from({ length: 6 }, () => retryable()),
    );
    expect(delays).toHaveLength(3);
    delays.forEach((delay, retry) => {
      expect(delay).toBeGreaterThanOrEqual(50 * 2 ** retry);
      expect(delay).toBeLessThanOrEqual(100 * 2 ** retry);
    });
  });

  test("the cap bounds every wait; a final failure stops at once", async () => {
    const capped = await waits({ retries: 10, baseDelayMs: 100, maxDelayMs: 300 }, [
      ...Array.from({ length: 6 }, () => retryable()),
      final(),
      retryable(),
    ]);
    expect(capped).toHaveLength(6);
    for (const delay of capped) expect(delay).toBeLessThanOrEqual(300);
    expect(await waits(FAST, [final()])).toEqual([]);
  });

  test("a retry-after within the cap is waited; a longer one stops the retries", async () => {
    expect(await waits({ retries: 2, baseDelayMs: 1, maxDelayMs: 500 }, [retryable("429", 400)])).toEqual([
      400,
    ]);
    expect(await waits({ retries: 2, baseDelayMs: 1, maxDelayMs: 500 }, [retryable("429", 501)])).toEqual([]);
  });
});

describe("withRetry", () => {
  test("retryable failures are retried until success", async () => {
    const attempt = scripted([retryable(), retryable()]);
    expect(await Effect.runPromise(attempt.effect.pipe(withRetry(FAST)))).toBe("ok");
    expect(attempt.runs()).toBe(3);
  });

  test("gives up with the last failure and the attempts made", async () => {
    const spent = scripted([retryable("a"), retryable("b"), retryable("c"), retryable("d"), retryable("e")]);
    const exit = await Effect.runPromiseExit(spent.effect.pipe(withRetry(FAST)));
    expect(exit).toEqual(Exit.fail({ failure: retryable("d"), attempts: 4 }));

    const refused = scripted([retryable("a"), final("no")]);
    expect(await Effect.runPromiseExit(refused.effect.pipe(withRetry(FAST)))).toEqual(
      Exit.fail({ failure: final("no"), attempts: 2 }),
    );
  });

  test("each run counts its own attempts", async () => {
    const always = Effect.fail(retryable());
    const retried = always.pipe(withRetry({ ...FAST, retries: 1 }));
    for (let run = 0; run < 2; run++)
      expect(await Effect.runPromiseExit(retried)).toEqual(Exit.fail({ failure: retryable(), attempts: 2 }));
  });
});

describe("timedAttempt", () => {
  test("a thrown value is classified, with the clock's time", async () => {
    const exit = await Effect.runPromiseExit(
      timedAttempt({
        try: () => Promise.reject(new Error("refused")),
        classify: (cause, nowMs) => ({ name: String(cause), retryable: nowMs > 0 }),
        timeout: 1000,
        onTimeout: () => final("timeout"),
      }),
    );
    expect(exit).toEqual(Exit.fail({ name: "Error: refused", retryable: true }));
  });

  test("no reply within the timeout: onTimeout's failure, and the request is aborted", async () => {
    let signal: AbortSignal | undefined;
    const exit = await Effect.runPromiseExit(
      timedAttempt({
        try: (given) => {
          signal = given;
          return new Promise<string>(() => {});
        },
        classify: () => final("thrown"),
        timeout: 20,
        onTimeout: () => retryable("timeout"),
      }),
    );
    expect(exit).toEqual(Exit.fail(retryable("timeout")));
    expect(signal?.aborted).toBe(true);
  });

  test("callWithRetry retries timed-out attempts, then answers", async () => {
    let calls = 0;
    const answer = await Effect.runPromise(
      callWithRetry({
        try: () => (++calls < 3 ? new Promise<string>(() => {}) : Promise.resolve("late ok")),
        classify: () => final(),
        timeout: 10,
        onTimeout: () => retryable("timeout"),
        policy: FAST,
      }),
    );
    expect(answer).toBe("late ok");
    expect(calls).toBe(3);
  });
});
