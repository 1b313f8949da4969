/** One RPC call under the shared retry helper: a per-attempt timeout and bounded, jittered retries. */
import * as Effect from "effect/Effect";
import { ChainUnavailable } from "../../core/ports/chain-reader.ts";
import { callWithRetry } from "../shared/retry.ts";
import { classifyRpcFailure, timeoutProblem } from "./rpc-problem.ts";

export interface CallPolicy {
  readonly timeoutMs: number;
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** The first back-off's ceiling; it doubles per retry, each wait jittered within its upper half. */
  readonly baseDelayMs: number;
}

/** Runs `send` (which must honour the abort signal) under `policy`. */
export const callRpc = <A>(
  label: string,
  policy: CallPolicy,
  send: (signal: AbortSignal) => Promise<A>,
): Effect.Effect<A, ChainUnavailable> =>
  callWithRetry({
    try: send,
    classify: classifyRpcFailure,
    timeout: policy.timeoutMs,
    onTimeout: () => timeoutProblem(policy.timeoutMs),
    policy: {
      retries: Math.max(0, policy.attempts - 1),
      baseDelayMs: policy.baseDelayMs,
      maxDelayMs: Infinity,
    },
  }).pipe(
    Effect.mapError(
      ({ failure }) =>
        new ChainUnavailable({ reason: failure.reason, message: `${label}: ${failure.message}` }),
    ),
  );

/** Fails with a malformed-reply ChainUnavailable. */
export const malformedReply = (label: string, message: string) =>
  new ChainUnavailable({ reason: "malformed-reply", message: `${label}: ${message}` });
