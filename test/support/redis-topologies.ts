/**
 * Redis as operators outgrow one node, started for real on loopback ports: a primary with a
 * replica behind one Sentinel (failover), and a cluster of three primaries (slots). Each server
 * is Debian's redis-server, as test/support/redis-server.ts starts it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitFor } from "./free-port.ts";
import { type RedisServer, rawClient, startRedisServer } from "./redis-server.ts";

export const SENTINEL_MASTER = "docs-chat";

export interface SentinelSetup {
  readonly primary: RedisServer;
  readonly replica: RedisServer;
  /** The Sentinel's address, as REDIS_SENTINELS takes it. */
  readonly sentinels: string;
  /** The port of the node Sentinel names primary now. */
  readonly primaryPort: () => Promise<number>;
  /** Waits until Sentinel names another primary than `port` (after the old one failed). */
  readonly waitForPromotion: (port: number, timeoutMs?: number) => Promise<number>;
  readonly stop: () => Promise<void>;
}

/** A primary, its replica and one Sentinel (quorum 1) that fails over a second after the primary stops answering. */
export const startSentinelSetup = async (): Promise<SentinelSetup> => {
  const primary = await startRedisServer();
  const replica = await startRedisServer({ args: ["--replicaof", "127.0.0.1", String(primary.port)] });
  const probe = rawClient(replica.url);
  await waitFor(
    async () => (await probe.info("replication")).includes("master_link_status:up"),
    10_000,
    "the replica's link to its primary",
  );
  probe.disconnect();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "redis-sentinel-"));
  const conf = join(dir, "sentinel.conf");
  writeFileSync(
    conf,
    [
      `port ${port}`,
      "bind 127.0.0.1",
      `dir ${dir}`,
      `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${primary.port} 1`,
      `sentinel down-after-milliseconds ${SENTINEL_MASTER} 1000`,
      `sentinel failover-timeout ${SENTINEL_MASTER} 10000`,
      `sentinel parallel-syncs ${SENTINEL_MASTER} 1`,
      "",
    ].join("\n"),
  );
  const child = Bun.spawn(["redis-server", conf, "--sentinel"], { stdout: "ignore", stderr: "ignore" });
  const sentinel = rawClient(`redis://127.0.0.1:${port}`);
  const primaryPort = async () => {
    const [, named] = (await sentinel.call("SENTINEL", "get-master-addr-by-name", SENTINEL_MASTER)) as [
      string,
      string,
    ];
    return Number(named);
  };
  await waitFor(async () => (await primaryPort().catch(() => 0)) === primary.port, 10_000, "Sentinel");
  // Sentinel must know the replica before it can promote it.
  await waitFor(
    async () => ((await sentinel.call("SENTINEL", "replicas", SENTINEL_MASTER)) as unknown[]).length > 0,
    15_000,
    "Sentinel discovering the replica",
  );
  return {
    primary,
    replica,
    sentinels: `127.0.0.1:${port}`,
    primaryPort,
    waitForPromotion: async (old, timeoutMs = 30_000) => {
      let now = old;
      await waitFor(
        async () => {
          now = await primaryPort();
          return now !== old;
        },
        timeoutMs,
        "Sentinel promoting the replica",
      );
      return now;
    },
    stop: async () => {
      sentinel.disconnect();
      child.kill("SIGTERM");
      await child.exited;
      await Promise.all([primary.stop(), replica.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export interface ClusterSetup {
  /** The nodes, as REDIS_CLUSTER_NODES takes them. */
  readonly nodes: string;
  readonly servers: ReadonlyArray<RedisServer>;
  readonly stop: () => Promise<void>;
}

/** Three primaries with the 16,384 slots split between them (redis-cli --cluster create), no replicas. */
export const startCluster = async (): Promise<ClusterSetup> => {
  const servers: RedisServer[] = [];
  for (let i = 0; i < 3; i++)
    servers.push(
      await startRedisServer({
        args: [
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          "nodes.conf",
          "--cluster-node-timeout",
          "2000",
        ],
      }),
    );
  const nodes = servers.map((server) => `127.0.0.1:${server.port}`);
  const create = Bun.spawn(
    ["redis-cli", "--cluster", "create", ...nodes, "--cluster-replicas", "0", "--cluster-yes"],
    {
      stdout: "ignore",
      stderr: "pipe",
    },
  );
  if ((await create.exited) !== 0)
    throw new Error(`redis-cli --cluster create failed: ${await new Response(create.stderr).text()}`);
  for (const server of servers) {
    const client = rawClient(server.url);
    await waitFor(
      async () => String(await client.call("CLUSTER", "INFO")).includes("cluster_state:ok"),
      15_000,
      `cluster state on port ${server.port}`,
    );
    client.disconnect();
  }
  return {
    nodes: nodes.join(","),
    servers,
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
};
