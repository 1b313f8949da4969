/**
 * Money writes that wait for replicas. Redis replicates asynchronously: a primary that fails
 * right after acknowledging a claim can be replaced by a replica that never saw it, and the same
 * signature would then be granted a second time. With `waitReplicas` set (one by default behind
 * Sentinel), each money write runs on a connection of its own followed by `WAIT n timeout` (WAIT
 * counts the replicas that hold this connection's writes, and blocks the connection meanwhile,
 * so the quota reads do not queue behind it); fewer acknowledgements than asked fail the write as
 * StoreUnavailable (503 with Retry-After). The write may then exist on the primary only: a retry
 * after a failover makes it once, a retry without one finds it made (a used signature, a claimed
 * request, a kept result) and the credits are there.
 *
 * The money writes: a signature claim and mark (PaymentStore), every write of an x402 payment
 * request (issue, claim, finish, settle), a pending settlement recorded, a payment listed for
 * refund, a paid result kept for its payment identifier, and a client's allowance on a wallet's
 * credits (the payer link). What is not money waits for nobody (docs/deployment.md says what a
 * failover can lose).
 *
 * On a Redis Cluster WAIT has no key, so it is sent on this client's connection to every primary:
 * the one that took the write counts the replicas holding it, the others answer at once for
 * writes they already replicated. Every primary must then have the replicas asked for.
 */
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import type { RedisStoreOptions } from "./options.ts";
import { close, connect, runCommand } from "./redis-client.ts";
import { primaries, type StoreClient } from "./store-client.ts";

export interface ReplicatedClaims {
  /** Runs `write` (which writes on `client`), then waits for the replicas. */
  <A, E>(write: () => Effect.Effect<A, E>): Effect.Effect<A, E | StoreUnavailable>;
  /** The connection claims are written on. */
  readonly client: StoreClient;
}

/** Writes that wait for nobody, on `client` (a store built without the replicated writer: its own tests). */
export const unreplicated = (client: StoreClient): ReplicatedClaims =>
  Object.assign(<A, E>(write: () => Effect.Effect<A, E>) => write(), { client });

export const replicatedClaims = (
  shared: StoreClient,
  options: Pick<RedisStoreOptions, "url" | "commandTimeoutMs" | "waitReplicas" | "waitTimeoutMs">,
): Effect.Effect<ReplicatedClaims, StoreUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const replicas = options.waitReplicas ?? 0;
    if (replicas === 0) return unreplicated(shared);
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
        const acknowledged = yield* runCommand(
          async (): Promise<number> =>
            Math.min(...(await Promise.all(primaries(client).map((node) => node.wait(replicas, timeoutMs))))),
        );
        if (acknowledged < replicas)
          return yield* new StoreUnavailable({
            reason: `claim held by ${acknowledged} of ${replicas} Redis replicas after ${timeoutMs} ms`,
          });
        return result;
      });
    return Object.assign(waitFor, { client });
  });
