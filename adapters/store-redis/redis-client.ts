/**
 * The ioredis connection, tuned to fail fast and closed: with Redis down every command fails
 * at once (no offline queue) or within the command timeout, and becomes StoreUnavailable.
 * Error reasons are fixed phrases: a Redis error message or the URL (which may carry a
 * password) never reaches an error, a log or a response.
 */
import { createHash } from "node:crypto";
import * as Effect from "effect/Effect";
import * as Redacted from "effect/Redacted";
import { Redis, type RedisOptions } from "ioredis";
import type { RedisNode, RedisTarget } from "../../core/config/config-redis.ts";
import { StoreUnavailable } from "../../core/ports/store-errors.ts";
import { type ConnectOptions, openCluster, type RedisAddress, type StoreClient } from "./store-client.ts";

export type { ConnectOptions, RedisAddress };

const nodesText = (nodes: ReadonlyArray<RedisNode>) =>
  nodes.map(({ host, port }) => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`)).join(",");

/** Where a Redis URL points, as host:port (or the socket path): never its user name or password. */
export const endpointOf = (url: string | RedisTarget): string => {
  if (typeof url !== "string") {
    switch (url.kind) {
      case "url":
        return endpointOf(Redacted.value(url.url));
      case "sentinel":
        return `primary "${url.master}" of the sentinels ${nodesText(url.sentinels)}`;
      case "cluster":
        return `the cluster ${nodesText(url.nodes)}`;
      default:
        return url satisfies never;
    }
  }
  if (!URL.canParse(url)) return "the configured REDIS_URL";
  const parsed = new URL(url);
  if (parsed.protocol === "unix:" || parsed.hostname === "")
    return parsed.pathname || "the configured socket";
  return `${parsed.hostname}:${parsed.port === "" ? "6379" : parsed.port}`;
};

const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EHOSTUNREACH: "host unreachable",
  ETIMEDOUT: "connection timed out",
  ECONNRESET: "connection reset",
};

/** A fixed, secret-free description of what went wrong. */
export const describeFailure = (cause: unknown): string => {
  const message = cause instanceof Error ? cause.message : "";
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === "string" && code in CONNECTION_CODES) return `redis ${CONNECTION_CODES[code]}`;
  // ioredis's own text goes on with the last socket error (an address): only its start is read.
  if (message.startsWith("All sentinels are unreachable"))
    return "no sentinel named a primary (none reachable, or none monitors that name)";
  if (/^(NOAUTH|WRONGPASS)/.test(message))
    return "redis refused the credentials (REDIS_URL or REDIS_PASSWORD)";
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

/** The target: a URL in clear (for the driver only), or the topology. */
export const urlOf = (options: ConnectOptions): string | RedisTarget =>
  Redacted.isRedacted(options.url) ? Redacted.value(options.url) : options.url;

/** A text naming the target, to key connections by (it may hold a password: never shown). */
export const targetKey = (options: ConnectOptions): string => {
  const target = urlOf(options);
  if (typeof target === "string") return target;
  if (target.kind === "url") return Redacted.value(target.url);
  return JSON.stringify({ ...target, password: target.password && Redacted.value(target.password) });
};

/** What every connection does: fail fast, never resend, pipeline what one turn of the loop sends. */
const failFast = (timeout: number) =>
  ({
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A command whose reply was lost is never sent twice behind the caller's back.
    autoResendUnfulfilledCommands: false,
    // Commands sent in one turn of the event loop go out in one write (and Redis reads them
    // in one read): under load, fewer system calls on both sides per request. Measured on
    // the status bench (docs/performance.md).
    enableAutoPipelining: true,
    connectTimeout: timeout,
    commandTimeout: timeout,
    retryStrategy: (times: number) => Math.min(50 * 2 ** times, 2000),
  }) satisfies RedisOptions;

/**
 * A primary demoted by a failover answers writes READONLY: reconnect (1), which asks the
 * sentinels for the new primary, and fail the command (never 2, resending it: a money write is
 * retried by its caller or not at all).
 */
const onReadonly = (error: Error) => (error.message.startsWith("READONLY") ? 1 : false);

/** Rounds over the sentinels before a connection attempt fails (about 0.6 s in all). */
const SENTINEL_ROUNDS = 3;

const sentinelClient = (target: Extract<RedisTarget, { kind: "sentinel" }>, timeout: number) =>
  new Redis({
    ...failFast(timeout),
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.master,
    ...(target.password === undefined ? {} : { password: Redacted.value(target.password) }),
    sentinelCommandTimeout: timeout,
    // A few quick rounds over the sentinels, then the connection attempt fails: at start the
    // service stops with the reason (unreachable sentinels, a name they do not monitor) rather
    // than waiting forever; later the client's own retryStrategy starts the rounds again.
    sentinelRetryStrategy: (times: number) => (times > SENTINEL_ROUNDS ? null : 100 * times),
    // Listens for +switch-master on the sentinels and reconnects at once, rather than when the
    // old primary next fails a command (or, demoted, answers READONLY).
    failoverDetector: true,
    reconnectOnError: onReadonly,
  });

/** A single-node client (by URL or through Sentinel), connected. */
const openOne = async (client: Redis): Promise<Redis> => {
  // Without a listener ioredis prints errors (with host names) to the console itself;
  // every failure already reaches the caller as StoreUnavailable. The socket's own error
  // (ECONNREFUSED...) says more than connect()'s "Connection is closed".
  let socketError: unknown;
  client.on("error", (error: unknown) => {
    socketError = error;
  });
  await client.connect().catch((error: unknown) => {
    client.disconnect();
    throw socketError ?? error;
  });
  return client;
};

const open = (target: string | RedisTarget, timeout: number): Promise<StoreClient> => {
  if (typeof target === "string") return openOne(new Redis(target, failFast(timeout)));
  switch (target.kind) {
    case "url":
      return openOne(new Redis(Redacted.value(target.url), failFast(timeout)));
    case "sentinel":
      return openOne(sentinelClient(target, timeout));
    case "cluster":
      return openCluster({
        // Split at the last colon (clusterSeeds), so an IPv6 host goes without brackets.
        nodes: target.nodes.map(({ host, port }) => `${host}:${port}`),
        timeoutMs: timeout,
        password: target.password === undefined ? undefined : Redacted.value(target.password),
      });
    default:
      return target satisfies never;
  }
};

/** Opens a connection and waits until it is ready; fails with StoreUnavailable naming where, never a password. */
export const connect = (options: ConnectOptions): Effect.Effect<StoreClient, StoreUnavailable> =>
  Effect.tryPromise({
    try: () => open(urlOf(options), options.commandTimeoutMs ?? 2000),
    catch: (cause) =>
      new StoreUnavailable({
        reason: `cannot reach Redis at ${endpointOf(urlOf(options))}: ${describeFailure(cause)}`,
      }),
  });

/** Closes gracefully when possible, at once otherwise. */
export const close = (client: StoreClient) =>
  Effect.promise(() =>
    client.status === "ready"
      ? client.quit().then(
          // QUIT ends the data connection only: a Sentinel client's failover detector keeps its
          // own connections to the sentinels (reconnecting for ever once they stop) until this.
          () => client.disconnect(),
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

/** EVALSHA, falling back to EVAL (which also caches the script) when Redis does not know it yet; a plain promise. */
export const evalScript = async (
  client: StoreClient,
  script: LuaScript,
  keys: ReadonlyArray<string>,
  args: ReadonlyArray<string | number>,
): Promise<unknown> => {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
    return await client.eval(script.source, keys.length, ...keys, ...args);
  }
};

/** `evalScript` as an effect, its failures StoreUnavailable. */
export const runScript = (
  client: StoreClient,
  script: LuaScript,
  keys: ReadonlyArray<string>,
  args: ReadonlyArray<string | number>,
) => Effect.tryPromise({ try: () => evalScript(client, script, keys, args), catch: unavailable });

/** One plain command (GET, PING) with the same error mapping. */
export const runCommand = <A>(command: () => Promise<A>) =>
  Effect.tryPromise({ try: command, catch: unavailable });
