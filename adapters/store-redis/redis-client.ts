/**
 * The ioredis connection, tuned to fail fast and closed: with Redis down every command fails
 * at once (no offline queue) or within the command timeout, and becomes StoreUnavailable.
 * Error reasons are fixed phrases: a Redis error message or the URL (which may carry a
 * password) never reaches an error, a log or a response.
 */
import { createHash } from "node:crypto";
import { Effect, Redacted } from "effect";
import { Redis } from "ioredis";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";

export interface ConnectOptions {
  readonly url: string | Redacted.Redacted<string>;
  /** Per-command deadline (default 2000 ms). */
  readonly commandTimeoutMs?: number;
}

/** A fixed, secret-free description of what went wrong. */
export const describeFailure = (cause: unknown): string => {
  const message = cause instanceof Error ? cause.message : "";
  if (cause instanceof Error && cause.name === "ReplyError") {
    // The scripts' own refusal of a hash they did not write (quota-lua-prelude.ts, x402-lua.ts).
    if (message.includes("corrupt quota state")) return "corrupt quota state";
    if (message.includes("corrupt payment request")) return "corrupt payment request";
    // Otherwise only Redis's error code (ERR, NOAUTH, READONLY, OOM, ...), never the rest of the text.
    const code = /^[A-Z]+/.exec(message)?.[0] ?? "error";
    return `redis replied ${code}`;
  }
  if (/timed out|timeout/i.test(message)) return "redis command timed out";
  return "redis connection unavailable";
};

/** Maps any failure of a Redis call to StoreUnavailable. */
export const unavailable = (cause: unknown) => new StoreUnavailable({ reason: describeFailure(cause) });

/** Opens a connection and waits until it is ready; fails with StoreUnavailable otherwise. */
export const connect = (options: ConnectOptions) =>
  Effect.tryPromise({
    try: async () => {
      const url = Redacted.isRedacted(options.url) ? Redacted.value(options.url) : options.url;
      const timeout = options.commandTimeoutMs ?? 2000;
      const client = new Redis(url, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        // A command whose reply was lost is never sent twice behind the caller's back.
        autoResendUnfulfilledCommands: false,
        connectTimeout: timeout,
        commandTimeout: timeout,
        retryStrategy: (times: number) => Math.min(50 * 2 ** times, 2000),
      });
      // Without a listener ioredis prints errors (with host names) to the console itself;
      // every failure already reaches the caller as StoreUnavailable.
      client.on("error", () => undefined);
      await client.connect().catch((error: unknown) => {
        client.disconnect();
        throw error;
      });
      return client;
    },
    catch: unavailable,
  });

/** Closes gracefully when possible, at once otherwise. */
export const close = (client: Redis) =>
  Effect.promise(() =>
    client.status === "ready"
      ? client.quit().then(
          () => undefined,
          () => client.disconnect(),
        )
      : Promise.resolve(client.disconnect()),
  );

export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

/** A script with its SHA1, for EVALSHA. */
export const luaScript = (source: string): LuaScript => ({
  source,
  sha: createHash("sha1").update(source).digest("hex"),
});

/** EVALSHA, falling back to EVAL (which also caches the script) when Redis does not know it yet. */
export const runScript = (
  client: Redis,
  script: LuaScript,
  keys: ReadonlyArray<string>,
  args: ReadonlyArray<string | number>,
) =>
  Effect.tryPromise({
    try: async (): Promise<unknown> => {
      try {
        return await client.evalsha(script.sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
        return await client.eval(script.source, keys.length, ...keys, ...args);
      }
    },
    catch: unavailable,
  });

/** One plain command (GET, PING) with the same error mapping. */
export const runCommand = <A>(command: () => Promise<A>) =>
  Effect.tryPromise({ try: command, catch: unavailable });
