/**
 * One connection to a Redis for every hosted site of the process. Each site has its own store,
 * answer cache and docs-sync record (their keys under the site's prefix), and each opened its
 * own connection: fifty sites made 150 connections per instance, each with its socket and
 * buffers, to one server that serves them one command at a time anyway. Sites now take the
 * process's shared connection to that URL; it closes when the last site using it closes.
 * (The default site keeps connections of its own, so its tests of a failing connection are
 * unaffected; a claim that waits for replicas keeps its own too: WAIT blocks its connection.)
 */
import * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { type ConnectOptions, close, connect, targetKey } from "./redis-client.ts";
import type { StoreClient } from "./store-client.ts";

interface Held {
  readonly client: StoreClient;
  users: number;
}

/** By URL and command deadline: connections with other deadlines are not interchangeable. */
const held = new Map<string, Held>();
const keyOf = (options: ConnectOptions) => `${options.commandTimeoutMs ?? 2000}|${targetKey(options)}`;

/** The process's connection for `options`, opened on first use and closed with its last user's scope. */
export const sharedConnection = (
  options: ConnectOptions,
): Effect.Effect<StoreClient, StoreUnavailable, Scope.Scope> => {
  const key = keyOf(options);
  return Effect.acquireRelease(
    Effect.gen(function* () {
      const before = held.get(key);
      if (before !== undefined) {
        before.users += 1;
        return before.client;
      }
      const client = yield* connect(options);
      // Another user may have connected while this one waited: keep one, close the other.
      const raced = held.get(key);
      if (raced !== undefined) {
        raced.users += 1;
        yield* close(client);
        return raced.client;
      }
      held.set(key, { client, users: 1 });
      return client;
    }),
    (client) =>
      Effect.suspend(() => {
        const entry = held.get(key);
        if (entry === undefined || entry.client !== client) return close(client);
        entry.users -= 1;
        if (entry.users > 0) return Effect.void;
        held.delete(key);
        return close(client);
      }),
  );
};

/** A connection of one's own, or the shared one. */
export const connection = (options: ConnectOptions & { readonly shareConnection?: boolean | undefined }) =>
  options.shareConnection === true
    ? sharedConnection(options)
    : Effect.acquireRelease(connect(options), close);
