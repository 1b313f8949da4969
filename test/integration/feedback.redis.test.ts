/** The FeedbackStore on a real Redis: ids bound to their identity, votes replaced, what is kept. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { Redis } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { keyLayout } from "../../adapters/store-redis/keys.ts";
import { close, connect } from "../../adapters/store-redis/redis-client.ts";
import type { StoreClient } from "../../adapters/store-redis/store-client.ts";
import { FeedbackStore } from "../../core/ports/feedback-store.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const limits = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 120_000 };
const T0 = Date.UTC(2030, 0, 15, 12);

describe.skipIf(!redisServerAvailable())("feedback on Redis", () => {
  let redis: RedisServer;
  let raw: Redis;
  let runtime: ManagedRuntime.ManagedRuntime<FeedbackStore, unknown>;
  const run = <A, E>(effect: Effect.Effect<A, E, FeedbackStore>) => runtime.runPromise(Effect.result(effect));

  beforeAll(async () => {
    redis = await startRedisServer();
    raw = new Redis(redis.url);
    runtime = ManagedRuntime.make(
      Layer.orDie(RedisStore.layer({ url: redis.url, limits, keyPrefix: "fb:" })),
    );
  });
  afterAll(async () => {
    await runtime.dispose();
    raw.disconnect();
    await redis.stop();
  });

  test("a vote on an issued id is kept as a hash; a second vote replaces it; others' votes are refused", async () => {
    const id = await runtime.runPromise(FeedbackStore.use((store) => store.issue("1.2.3.4", T0)));
    expect(await raw.get(`fb:answer:${id}`)).toBe("1.2.3.4");
    expect(await raw.pttl(`fb:answer:${id}`)).toBeGreaterThan(6 * 86_400_000);
    const record = (identity: string, vote: "up" | "down", comment?: string) =>
      run(FeedbackStore.use((store) => store.record(identity, { answerId: id, vote, comment, at: T0 })));

    expect((await record("1.2.3.4", "down", "too vague"))._tag).toBe("Success");
    expect(await raw.hgetall(`fb:feedback:${id}`)).toEqual({
      vote: "down",
      at: String(T0),
      comment: "too vague",
    });
    expect((await record("1.2.3.4", "up"))._tag).toBe("Success");
    expect(await raw.hgetall(`fb:feedback:${id}`)).toEqual({ vote: "up", at: String(T0) });

    const stranger = await record("5.6.7.8", "down");
    expect(stranger._tag === "Failure" && stranger.failure._tag).toBe("UnknownAnswer");
    expect(await raw.hget(`fb:feedback:${id}`, "vote")).toBe("up");
    const unknown = await run(
      FeedbackStore.use((store) =>
        store.record("1.2.3.4", { answerId: crypto.randomUUID(), vote: "up", comment: undefined, at: T0 }),
      ),
    );
    expect(unknown._tag === "Failure" && unknown.failure._tag).toBe("UnknownAnswer");
  });
});

describe.skipIf(!redisServerAvailable())("feedback on a 3-primary Redis Cluster", () => {
  const cluster = clusterForSuite();
  let raw: StoreClient;
  let runtime: ManagedRuntime.ManagedRuntime<FeedbackStore, unknown>;
  // An answer id's owner and its feedback share the id's tag: the vote's script touches both.
  const keys = keyLayout("fb:", "fb:", true);

  beforeAll(async () => {
    await cluster.start();
    raw = await Effect.runPromise(connect({ url: cluster.target() }));
    runtime = ManagedRuntime.make(
      Layer.orDie(RedisStore.layer({ url: cluster.target(), limits, keyPrefix: "fb:" })),
    );
  }, 60_000);
  afterAll(async () => {
    await runtime.dispose();
    await Effect.runPromise(close(raw));
    await cluster.stop();
  });

  test("a vote on an issued id is kept; a second replaces it; a stranger's is refused", async () => {
    const id = await runtime.runPromise(FeedbackStore.use((store) => store.issue("1.2.3.4", T0)));
    expect(await raw.get(keys.answer(id))).toBe("1.2.3.4");
    const record = (identity: string, vote: "up" | "down") =>
      runtime.runPromise(
        Effect.result(
          FeedbackStore.use((store) =>
            store.record(identity, { answerId: id, vote, comment: undefined, at: T0 }),
          ),
        ),
      );
    expect((await record("1.2.3.4", "down"))._tag).toBe("Success");
    expect((await record("1.2.3.4", "up"))._tag).toBe("Success");
    expect(await raw.hgetall(keys.feedback(id))).toEqual({ vote: "up", at: String(T0) });
    const stranger = await record("5.6.7.8", "down");
    expect(stranger._tag === "Failure" && stranger.failure._tag).toBe("UnknownAnswer");
    expect(await raw.hget(keys.feedback(id), "vote")).toBe("up");
  });
});
