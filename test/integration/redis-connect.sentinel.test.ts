/**
 * Connecting through Sentinel (REDIS_SENTINELS), with real processes on loopback: the client
 * finds the primary the sentinels name, and follows it when they promote the replica; a wrong
 * master name or unreachable sentinels fail at once as StoreUnavailable, naming the sentinels
 * and never the password.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import type { Redis } from "ioredis";
import { close, connect } from "../../adapters/store-redis/redis-client.ts";
import { parseConfig } from "../../core/config/config.ts";
import type { RedisTarget } from "../../core/config/config-redis.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { storeLayerFor } from "../../src/runtime/app-layer.ts";
import { freePort, waitFor } from "../support/free-port.ts";
import { describeWithRedis, rawClient } from "../support/redis-server.ts";
import { SENTINEL_MASTER, type SentinelSetup, startSentinelSetup } from "../support/redis-topologies.ts";

const SECRET = "sup3r-secret-pw";
const NO_PRIMARY = "no sentinel named a primary (none reachable, or none monitors that name)";

const sentinelTarget = (sentinels: string, master = SENTINEL_MASTER): RedisTarget => ({
  kind: "sentinel",
  sentinels: sentinels.split(",").map((node) => {
    const [host, port] = node.split(":");
    return { host: host!, port: Number(port) };
  }),
  master,
  password: undefined,
});

/** The port of the server `client` is connected to. */
const portOf = async (client: Redis) => Number(/tcp_port:(\d+)/.exec(await client.info("server"))?.[1]);

/** The failure's reason, or "connected". */
const reasonOf = async (target: RedisTarget) => {
  const exit = await Effect.runPromiseExit(connect({ url: target, commandTimeoutMs: 500 }));
  if (Exit.isSuccess(exit)) {
    await Effect.runPromise(close(exit.value));
    return "connected";
  }
  return JSON.stringify(exit.cause);
};

test("unreachable sentinels fail at once, named, the password never", async () => {
  const port = await freePort();
  const started = performance.now();
  const reason = await reasonOf({
    kind: "sentinel",
    sentinels: [{ host: "127.0.0.1", port }],
    master: SENTINEL_MASTER,
    password: Redacted.make(SECRET),
  });
  expect(performance.now() - started).toBeLessThan(2000);
  expect(reason).toContain(
    `cannot reach Redis at primary \\"${SENTINEL_MASTER}\\" of the sentinels 127.0.0.1:${port}: ${NO_PRIMARY}`,
  );
  expect(reason).not.toContain(SECRET);
});

describeWithRedis("a primary found through Sentinel", () => {
  let redis: SentinelSetup;
  let client: Redis;
  beforeAll(async () => {
    redis = await startSentinelSetup();
    client = (await Effect.runPromise(
      connect({ url: sentinelTarget(redis.sentinels), commandTimeoutMs: 500 }),
    )) as Redis;
  }, 30_000);
  afterAll(async () => {
    if (client !== undefined) await Effect.runPromise(close(client));
    // close() QUITs a ready client, and a QUIT ends the connection but not the failover detector's
    // subscriptions on the sentinels (ioredis closes those only in disconnect()): left open, they
    // would reconnect to the stopped sentinels every minute for the rest of the test run.
    client?.disconnect();
    await redis?.stop();
  });

  test("a master name the sentinels do not monitor is refused, named", async () => {
    expect(await reasonOf(sentinelTarget(redis.sentinels, "not-monitored"))).toContain(
      `cannot reach Redis at primary \\"not-monitored\\" of the sentinels ${redis.sentinels}: ${NO_PRIMARY}`,
    );
  });

  test("the service's store from REDIS_SENTINELS: its claims wait for the replica by default", async () => {
    const parsed = parseConfig({ REDIS_SENTINELS: redis.sentinels, REDIS_SENTINEL_MASTER: SENTINEL_MASTER });
    if (Result.isFailure(parsed)) throw new Error(parsed.failure.message);
    expect(parsed.success.redisWaitReplicas).toBe(1);
    const runtime = ManagedRuntime.make(
      storeLayerFor(parsed.success, memoryLogger().logger, {}, "from-env:"),
    );
    try {
      await runtime.runPromise(
        PaymentStore.use((store) => store.claim("sig-from-env", "client-a", 10, Date.now())),
      );
      // Acknowledged means the replica holds it at that moment (WAIT 1).
      const replica = rawClient(redis.replica.url);
      // A site's store keeps used signatures in the service's ledger (docs-chat:).
      expect(await replica.exists("docs-chat:sig:sig-from-env")).toBe(1);
      replica.disconnect();
      // And it was waited for: the primary ran WAIT.
      const primary = rawClient(redis.primary.url);
      expect(await primary.info("commandstats")).toMatch(/cmdstat_wait:calls=1,/);
      primary.disconnect();
    } finally {
      await runtime.dispose();
    }
  });

  test("the client writes to the primary, and to the promoted replica after a failover", async () => {
    expect(await client.set("before", "1")).toBe("OK");
    expect(await portOf(client)).toBe(redis.primary.port);
    const old = await redis.primaryPort();
    await redis.primary.down("SIGKILL");
    expect(await redis.waitForPromotion(old, 20_000)).toBe(redis.replica.port);
    // The same client, reconnected through the sentinels: no new connection by the caller.
    await waitFor(
      async () => (await client.set("after", "1").catch(() => "failed")) === "OK",
      10_000,
      "the client to follow the new primary",
    );
    expect(await client.get("before")).toBe("1");
    expect(await portOf(client)).toBe(redis.replica.port);
  }, 40_000);
});
