/** One RPC call with a per-attempt timeout and bounded retries (exponential back-off with jitter). */
import { Duration, Effect, Schedule } from "effect";
import { ChainUnavailable } from "../../core/ports/chain-reader.ts";
import { classifyRpcFailure, type RpcProblem, timeoutProblem } from "./rpc-problem.ts";

export interface CallPolicy {
  readonly timeoutMs: number;
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** First back-off; doubles per retry, each wait scaled by a random 0.8-1.2. */
  readonly baseDelayMs: number;
}

/** Runs `send` (which must honour the abort signal) under `policy`. */
export const callRpc = <A>(
  label: string,
  policy: CallPolicy,
  send: (signal: AbortSignal) => Promise<A>,
): Effect.Effect<A, ChainUnavailable> =>
  Effect.tryPromise({ try: send, catch: classifyRpcFailure }).pipe(
    Effect.timeoutOrElse({
      duration: Duration.millis(policy.timeoutMs),
      orElse: () => Effect.fail(timeoutProblem(policy.timeoutMs)),
    }),
    Effect.retry({
      times: Math.max(0, policy.attempts - 1),
      schedule: Schedule.exponential(Duration.millis(policy.baseDelayMs)).pipe(Schedule.jittered),
      while: (problem: RpcProblem) => problem.retryable,
    }),
    Effect.mapError(
      (problem) => new ChainUnavailable({ reason: problem.reason, message: `${label}: ${problem.message}` }),
    ),
  );

/** Fails with a malformed-reply ChainUnavailable. */
export const malformedReply = (label: string, message: string) =>
  new ChainUnavailable({ reason: "malformed-reply", message: `${label}: ${message}` });
