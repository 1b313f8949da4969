/**
 * Claims that wait for replicas. Redis replicates asynchronously: a primary that fails right
 * after acknowledging a claim can be replaced by a replica that never saw it, and the same
 * signature would then be granted a second time. With `waitReplicas` set, each claim runs on a
 * connection of its own followed by `WAIT n timeout` (WAIT counts the replicas that hold this
 * connection's writes, and blocks the connection meanwhile, so the quota reads do not queue
 * behind it); fewer acknowledgements than asked fail the claim as StoreUnavailable (503, retry).
 * The grant may then exist on the primary only: a retry after a failover grants it once, a
 * retry without one answers "already used" and the credits are there.
 */
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { Redis } from "ioredis";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { RedisStoreOptions } from "./options.ts";
import { close, connect, runCommand } from "./redis-client.ts";

export interface ReplicatedClaims {
  /** Runs `write` on `client`, then waits for the replicas. */
  <A, E>(write: () => Effect.Effect<A, E>): Effect.Effect<A, E | StoreUnavailable>;
  /** The connection claims are written on. */
  readonly client: Redis;
}

export const replicatedClaims = (
  shared: Redis,
  options: Pick<RedisStoreOptions, "url" | "commandTimeoutMs" | "waitReplicas" | "waitTimeoutMs">,
): Effect.Effect<ReplicatedClaims, StoreUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const replicas = options.waitReplicas ?? 0;
    if (replicas === 0)
      return Object.assign(<A, E>(write: () => Effect.Effect<A, E>) => write(), { client: shared });
    const timeoutMs = options.waitTimeoutMs ?? 1000;
    // The command deadline must outlast WAIT's own.
    const client = yield* Effect.acquireRelease(
      connect({
        url: options.url,
        commandTimeoutMs: Math.max(options.commandTimeoutMs ?? 2000, timeoutMs + 1000),
      }),
      close,
    );
    const waitFor = <A, E>(write: () => Effect.Effect<A, E>) =>
      Effect.gen(function* () {
        const result = yield* write();
        const acknowledged = yield* runCommand(() => client.wait(replicas, timeoutMs));
        if (acknowledged < replicas)
          return yield* new StoreUnavailable({
            reason: `claim held by ${acknowledged} of ${replicas} Redis replicas after ${timeoutMs} ms`,
          });
        return result;
      });
    return Object.assign(waitFor, { client });
  });
