/**
 * The store on one Redis or on a Redis Cluster (REDIS_CLUSTER_NODES). Every adapter takes a
 * StoreClient, and each script names all its keys (KEYS) in one hash slot (keys.ts), so the
 * cluster client routes it whole to the node holding that slot. The commands that have no key
 * (the eviction policy, PING) must reach every node themselves: these helpers name the nodes.
 *
 * The cluster client fails fast and closed like the single-node one (redis-client.ts): no
 * offline queue, and a command is never sent twice behind the caller's back. ioredis would
 * resend a command after "Connection is closed" (retryDelayOnFailover), and that command may
 * have run: a claim resent after it granted. Only the redirections that say the command did not
 * run (MOVED, ASK, TRYAGAIN) are followed; a CLUSTERDOWN fails at once (503, the client retries).
 */
import * as Redacted from "effect/Redacted";
import { Cluster, type Redis } from "ioredis";
import type { RedisTarget } from "../../core/config/config-redis.ts";

/** Where the store connects: a URL (clear or redacted), or a Sentinel or cluster target. */
export type RedisAddress = string | Redacted.Redacted<string> | RedisTarget;

export interface ConnectOptions {
  readonly url: RedisAddress;
  /** Per-command deadline (default 2000 ms). */
  readonly commandTimeoutMs?: number;
}

/** One Redis or a cluster of them: what every adapter of the store talks to. */
export type StoreClient = Redis | Cluster;

/** Whether the client is a cluster (its per-node commands go to every primary). */
export const isCluster = (client: StoreClient): client is Cluster => client instanceof Cluster;

/** The nodes that take writes: every primary of a cluster, or the one server. */
export const primaries = (client: StoreClient): ReadonlyArray<Redis> =>
  isCluster(client) ? client.nodes("master") : [client];

/**
 * Pings every primary. On a cluster, a primary the slot map still names but the client no
 * longer holds (its connection ended when it stopped) fails it too: pinging only the nodes
 * left would call a cluster ready with a third of its slots unserved.
 */
export const pingPrimaries = async (client: StoreClient): Promise<void> => {
  if (!isCluster(client)) {
    await client.ping();
    return;
  }
  const held = new Map(
    client.nodes("master").map((node) => [`${node.options.host}:${node.options.port}`, node]),
  );
  for (const owners of client.slots) {
    const primary = owners[0];
    if (primary !== undefined && !held.has(primary))
      throw new Error(`cluster primary ${primary} is not connected`);
  }
  await Promise.all([...held.values()].map((node) => node.ping()));
};

/** Every node, replicas too: a replica with the wrong eviction policy becomes a primary on failover. */
export const everyNode = (client: StoreClient): ReadonlyArray<Redis> =>
  isCluster(client) ? client.nodes("all") : [client];

/** Whether these options open a cluster: the key names then carry hash tags (keys.ts). */
export const clusterMode = (options: ConnectOptions): boolean =>
  typeof options.url !== "string" && !Redacted.isRedacted(options.url) && options.url.kind === "cluster";

/** "host:port" seeds as ioredis takes them, split at the last colon (an IPv6 host has several). */
export const clusterSeeds = (nodes: ReadonlyArray<string>) =>
  nodes.map((node) => {
    const at = node.lastIndexOf(":");
    return at < 0
      ? { host: node, port: 6379 }
      : { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });

export interface ClusterConnectOptions {
  readonly nodes: ReadonlyArray<string>;
  readonly timeoutMs: number;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly tls?: boolean | undefined;
}

/** A cluster client with the single-node client's fail-fast settings; resolves once the slots are known. */
export const openCluster = async (options: ClusterConnectOptions): Promise<Cluster> => {
  const timeout = options.timeoutMs;
  const cluster = new Cluster(clusterSeeds(options.nodes), {
    lazyConnect: true,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    // Reads of a used signature or a quota never come from a replica that may lag.
    scaleReads: "master",
    retryDelayOnFailover: 0,
    retryDelayOnClusterDown: 0,
    slotsRefreshTimeout: timeout,
    clusterRetryStrategy: (times: number) => Math.min(50 * 2 ** times, 2000),
    redisOptions: {
      connectTimeout: timeout,
      commandTimeout: timeout,
      maxRetriesPerRequest: 1,
      autoResendUnfulfilledCommands: false,
      ...(options.username === undefined ? {} : { username: options.username }),
      ...(options.password === undefined ? {} : { password: options.password }),
      ...(options.tls === true ? { tls: {} } : {}),
    },
  });
  // Without listeners ioredis prints errors (with host names) to the console itself.
  let socketError: unknown;
  cluster.on("error", (error: unknown) => {
    socketError = error;
  });
  cluster.on("node error", (error: unknown) => {
    socketError = error;
  });
  await cluster.connect().catch((error: unknown) => {
    cluster.disconnect();
    throw socketError ?? error;
  });
  return cluster;
};
