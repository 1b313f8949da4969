/**
 * The docs sync's lease and last record, one contract on memory and on a real redis-server:
 * one holder at a time (two instances on one Redis cannot sync at once), only the holder gives
 * the lease back, an expired lease can be taken, the last record is shared.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { makeMemoryDocsSync } from "../../adapters/store-memory/docs-sync/memory-docs-sync.ts";
import { RedisDocsSync } from "../../adapters/store-redis/index.ts";
import { type DocsSyncRecord, DocsSyncStore, syncDue } from "../../core/ports/docs-sync.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";

const RECORD: DocsSyncRecord = {
  at: 1_000,
  ok: true,
  url: "https://docs.example.com/",
  durationMs: 1200,
  via: "sitemap",
  pages: 12,
  changed: 3,
  removed: 1,
  errors: 0,
};

type Instance = ManagedRuntime.ManagedRuntime<DocsSyncStore, unknown>;

/** Two instances' views of one store (one memory store, or two connections to one Redis). */
const contract = (name: string, instances: () => [Layer.Layer<DocsSyncStore>, Layer.Layer<DocsSyncStore>]) =>
  describe(`docs sync store: ${name}`, () => {
    let a: Instance;
    let b: Instance;
    beforeAll(() => {
      const [first, second] = instances();
      [a, b] = [ManagedRuntime.make(first), ManagedRuntime.make(second)];
    });
    afterAll(async () => {
      await Promise.all([a.dispose(), b.dispose()]);
    });
    const run = <A, E>(on: Instance, use: (store: DocsSyncStore["Service"]) => Effect.Effect<A, E>) =>
      on.runPromise(Effect.flatMap(DocsSyncStore, use));

    test("one holder at a time; only the holder gives the lease back; an expired lease is free", async () => {
      expect(await run(a, (s) => s.claim("a", 0, 60_000))).toBe(true);
      expect(await run(b, (s) => s.claim("b", 0, 60_000))).toBe(false);
      await run(b, (s) => s.release("b"));
      expect(await run(b, (s) => s.claim("b", 0, 60_000))).toBe(false);
      await run(a, (s) => s.release("a"));
      expect(await run(b, (s) => s.claim("b", Date.now(), 50))).toBe(true);
      await Bun.sleep(120);
      expect(await run(a, (s) => s.claim("a", Date.now(), 60_000))).toBe(true);
      await run(a, (s) => s.release("a"));
    });

    test("the last record is what every instance reads", async () => {
      expect(await run(b, (s) => s.last)).toBeUndefined();
      await run(a, (s) => s.record(RECORD));
      expect(await run(b, (s) => s.last)).toEqual(RECORD);
      const failed = {
        ...RECORD,
        at: 2_000,
        ok: false,
        problem: "unreachable: https://docs.example.com/: ECONNREFUSED",
      };
      await run(b, (s) => s.record(failed));
      expect(await run(a, (s) => s.last)).toEqual(failed);
    });
  });

test("a sync is due with no record, or once the interval has passed since the last (a failed one too)", () => {
  expect(syncDue(undefined, 0, 1000)).toBe(true);
  expect(syncDue(RECORD, 1_999, 1000)).toBe(false);
  expect(syncDue({ ...RECORD, ok: false }, 2_000, 1000)).toBe(true);
});

contract("memory", () => {
  const one = Layer.succeed(DocsSyncStore)(makeMemoryDocsSync());
  return [one, one];
});

describe.skipIf(!redisServerAvailable())("on Redis", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.stop();
  });
  contract("redis", () => [
    RedisDocsSync.layer({ url: server.url, keyPrefix: "t:" }).pipe(Layer.orDie),
    RedisDocsSync.layer({ url: server.url, keyPrefix: "t:" }).pipe(Layer.orDie),
  ]);
});

describe.skipIf(!redisServerAvailable())("on Redis Cluster", () => {
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  contract("redis-cluster", () => [
    RedisDocsSync.layer({ url: cluster.target(), keyPrefix: "t:" }).pipe(Layer.orDie),
    RedisDocsSync.layer({ url: cluster.target(), keyPrefix: "t:" }).pipe(Layer.orDie),
  ]);
});
