/**
 * The store's suites on a Redis Cluster of three primaries (redis-topologies.ts): the target to
 * hand RedisStore.layer and the other layers, and the per-node reads and flushes a test of one
 * Redis does with one command (KEYS, FLUSHALL reach one node of a cluster only). Without
 * redis-server the suites skip locally and fail in CI, as describeWithRedis does.
 */
import type { RedisTarget } from "../../core/config/config-redis.ts";
import { rawClient } from "./redis-server.ts";
import { type ClusterSetup, startCluster } from "./redis-topologies.ts";

/** The store's target for a cluster's node list ("host:port,..."). */
export const clusterTarget = (nodes: string): RedisTarget => ({
  kind: "cluster",
  nodes: nodes.split(",").map((node) => {
    const [host, port] = node.split(":");
    return { host: host!, port: Number(port) };
  }),
  password: undefined,
});

/** Starts a cluster for a suite (once per file): call in beforeAll, stop in afterAll. */
export const clusterForSuite = () => {
  let setup: ClusterSetup | undefined;
  return {
    start: async () => {
      setup = await startCluster();
      return setup;
    },
    stop: async () => setup?.stop(),
    /** The running cluster's target (inside a test). */
    target: (): RedisTarget => clusterTarget(setup!.nodes),
    setup: () => setup!,
  };
};

/** The keys matching `pattern` on every primary (KEYS reaches one node of a cluster). */
export const keysOnEveryNode = async (setup: ClusterSetup, pattern: string): Promise<string[]> => {
  const found = await Promise.all(
    setup.servers.map(async (server) => {
      const client = rawClient(server.url);
      try {
        return await client.keys(pattern);
      } finally {
        client.disconnect();
      }
    }),
  );
  return found.flat().sort();
};

/** The node (by port) holding each key, on every primary. */
export const nodeOfKeys = async (setup: ClusterSetup, pattern: string): Promise<Map<string, number>> => {
  const byKey = new Map<string, number>();
  for (const server of setup.servers) {
    const client = rawClient(server.url);
    try {
      for (const key of await client.keys(pattern)) byKey.set(key, server.port);
    } finally {
      client.disconnect();
    }
  }
  return byKey;
};

/** FLUSHALL on every primary. */
export const flushEveryNode = async (setup: ClusterSetup): Promise<void> => {
  await Promise.all(
    setup.servers.map(async (server) => {
      const client = rawClient(server.url);
      try {
        await client.flushall();
      } finally {
        client.disconnect();
      }
    }),
  );
};
