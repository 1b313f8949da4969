/**
 * Claims that wait for replicas (REDIS_WAIT_REPLICAS), on a real primary and a real replica
 * started on loopback. Replication is asynchronous: a claim acknowledged while no replica holds
 * it could be forgotten by a failover and the signature granted again. With the setting, such
 * a claim fails (StoreUnavailable, a 503 the client retries) instead of succeeding unreplicated;
 * without it, the same situation is acknowledged, which is what the setting is for.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Cause, Exit, ManagedRuntime } from "effect";
import type { Redis } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { waitFor } from "../support/free-port.ts";
import {
  type RedisServer,
  rawClient,
  redisServerAvailable,
  startRedisServer,
} from "../support/redis-server.ts";
import { STORE_LIMITS, type StoreRuntime, T0 } from "../support/store-fixtures.ts";

const WAIT_MS = 1000;

type Runtime = StoreRuntime;

describe.skipIf(!redisServerAvailable())("claims on a primary with a replica", () => {
  let primary: RedisServer;
  let replica: RedisServer;
  let onReplica: Redis;
  let waiting: Runtime;
  let notWaiting: Runtime;

  /** Whether the primary sees its replica online and acknowledging writes. */
  const replicaInSync = async () => {
    const client = rawClient(primary.url);
    try {
      const info = await client.info("replication");
      if (!/slave0:.*state=online/.test(info)) return false;
      await client.set("warm-up", "1");
      return (await client.wait(1, 200)) === 1;
    } finally {
      client.disconnect();
    }
  };
  const claim = (runtime: Runtime, signature: string) =>
    runtime.runPromiseExit(PaymentStore.use((store) => store.claim(signature, "client-a", 10, T0)));
  const onReplicaNow = (signature: string) => onReplica.get(`docs-chat:sig:${signature}`);

  beforeAll(async () => {
    // No delay before a full sync, so a restarted replica catches up at once.
    primary = await startRedisServer({ args: ["--repl-diskless-sync-delay", "0"] });
    replica = await startRedisServer({ args: ["--replicaof", "127.0.0.1", String(primary.port)] });
    await waitFor(replicaInSync, 10_000, "the replica to sync");
    onReplica = rawClient(replica.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await onReplica.connect();
    waiting = ManagedRuntime.make(
      RedisStore.layer({ url: primary.url, limits: STORE_LIMITS, waitReplicas: 1, waitTimeoutMs: WAIT_MS }),
    );
    notWaiting = ManagedRuntime.make(RedisStore.layer({ url: primary.url, limits: STORE_LIMITS }));
  }, 30_000);
  afterAll(async () => {
    onReplica?.disconnect();
    await replica?.down("SIGKILL"); // a replica shuts down slowly (it waits for its primary)
    await waiting?.dispose();
    await notWaiting?.dispose();
    await replica?.stop();
    await primary?.stop();
  });

  test("with the replica up, a claim is acknowledged once the replica holds it", async () => {
    expect(Exit.isSuccess(await claim(waiting, "sig-replicated"))).toBe(true);
    // Acknowledged means replicated: the replica has the record at that moment, no waiting.
    expect(await onReplicaNow("sig-replicated")).toStartWith(String(T0));
  });

  test("with the replica stopped, a claim fails after the wait instead of succeeding unreplicated", async () => {
    onReplica.disconnect();
    await replica.down("SIGKILL"); // the replica dies
    const started = performance.now();
    const exit = await claim(waiting, "sig-during-outage");
    const tookMs = performance.now() - started;
    expect(Exit.isFailure(exit)).toBe(true);
    if (Exit.isFailure(exit))
      expect(Cause.squash(exit.cause)).toMatchObject({
        _tag: "StoreUnavailable",
        reason: `claim held by 0 of 1 Redis replicas after ${WAIT_MS} ms`,
      });
    expect(tookMs).toBeGreaterThanOrEqual(WAIT_MS - 20); // it did wait for the replica
    // The same outage without the setting: acknowledged with no replica holding it.
    expect(Exit.isSuccess(await claim(notWaiting, "sig-unreplicated"))).toBe(true);
  });

  test("the replica back and in sync: claims are acknowledged again", async () => {
    await replica.up();
    await waitFor(replicaInSync, 10_000, "the replica to sync again");
    await onReplica.connect();
    expect(Exit.isSuccess(await claim(waiting, "sig-after"))).toBe(true);
    expect(await onReplicaNow("sig-after")).toStartWith(String(T0));
  }, 30_000);
});
