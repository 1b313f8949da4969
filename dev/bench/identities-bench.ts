/**
 * Memory per identity. The memory store's state (the very code the store runs) holds
 * BENCH_IDENTITIES (default 1,000,000) distinct clients who each asked one question; its JS
 * heap is measured then and again after the day has passed and the sweeper ran (bounded:
 * free-only clients are forgotten). A memo reference is sealed, not kept: it costs nothing here. Then a real redis-server (AOF off: memory is what is measured) takes
 * BENCH_IDENTITIES_REDIS (default 200,000) clients through the Redis store, and its
 * used_memory per identity is reported. Baseline: the same heap or Redis with no identities.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Result from "effect/Result";
import { newHoldId } from "../../adapters/shared/random-ids.ts";
import { makeMemoryState } from "../../adapters/store-memory/memory-state.ts";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { DAY_MS } from "../../core/time.ts";
import { HOLD_TTL_MS } from "../../src/runtime/app-layer.ts";
import { rawClient, startRedisServer } from "../../test/support/redis-server.ts";
import { type Figure, record } from "./report.ts";

const N = Number(process.env.BENCH_IDENTITIES ?? 1_000_000);
const N_REDIS = Number(process.env.BENCH_IDENTITIES_REDIS ?? 200_000);
const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: HOLD_TTL_MS };
const NOW = Date.UTC(2030, 0, 15, 12);
const identity = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

const heap = () => {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
};
const perIdentity = (bytes: number, count: number) => `${(bytes / count).toFixed(0)} B`;

// --- the memory store -------------------------------------------------------------------
const state = makeMemoryState(LIMITS, { holdId: newHoldId });
const empty = heap();
for (let i = 0; i < N; i++) {
  const reserved = state.reserve(identity(i), NOW);
  if (Result.isFailure(reserved)) throw new Error("reserve failed");
  state.commit(identity(i), reserved.success.hold.id, NOW);
}
const withQuota = heap();
state.sweep(NOW + 2 * DAY_MS); // the day is over: the free counters are forgotten
const afterDay = heap();
console.log(`\nMemory store, ${N.toLocaleString("en")} identities (JS heap after GC)`);
console.log(`  one question each: ${perIdentity(withQuota - empty, N)} per identity`);
console.log(`  the next day, swept: ${((afterDay - empty) / 2 ** 20).toFixed(1)} MB above empty`);

// --- Redis -------------------------------------------------------------------------------
const redis = await startRedisServer({ args: ["--appendonly", "no"] });
const raw = rawClient(redis.url);
const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await raw.info("memory"))?.[1] ?? Number.NaN);
const runtime = ManagedRuntime.make(RedisStore.layer({ url: redis.url, limits: LIMITS }).pipe(Layer.orDie));
const figures: Figure[] = [];
try {
  const redisEmpty = await usedMemory();
  const each = (work: (id: string) => Effect.Effect<unknown, unknown, QuotaStore>) =>
    runtime.runPromise(
      Effect.forEach(
        Array.from({ length: N_REDIS }, (_, i) => identity(i)),
        work,
        { concurrency: 256, discard: true },
      ),
    );
  const started = performance.now();
  await each((id) =>
    Effect.flatMap(QuotaStore, (quota) =>
      Effect.flatMap(quota.reserve(id, NOW), ({ hold }) => quota.commit(id, hold.id, NOW)),
    ),
  );
  const redisQuota = await usedMemory();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nRedis store, ${N_REDIS.toLocaleString("en")} identities (used_memory), ${seconds.toFixed(1)} s`,
  );
  console.log(`  one question each: ${perIdentity(redisQuota - redisEmpty, N_REDIS)} per identity`);
  figures.push({
    measure: `Redis, ${N_REDIS.toLocaleString("en")} identities: used_memory per identity, one question`,
    value: perIdentity(redisQuota - redisEmpty, N_REDIS),
    baseline: `${(redisEmpty / 2 ** 20).toFixed(1)} MB empty`,
  });
} finally {
  raw.disconnect();
  await runtime.dispose();
  await redis.stop();
}

record("identities", {
  title: "Memory per identity",
  method: `${N.toLocaleString("en")} distinct identities through the memory store's own state (JS heap after a full GC), and ${N_REDIS.toLocaleString("en")} through the Redis store on a real redis-server (INFO used_memory, AOF off). Each identity asked one question (reserve + commit); a memo reference is sealed, so asking for one keeps nothing.`,
  figures: [
    {
      measure: `memory store, ${N.toLocaleString("en")} identities: heap per identity, one question`,
      value: perIdentity(withQuota - empty, N),
      baseline: `${(empty / 2 ** 20).toFixed(1)} MB heap empty`,
    },
    {
      measure: "memory store: heap above empty the next day, after the sweep",
      value: `${((afterDay - empty) / 2 ** 20).toFixed(1)} MB`,
      goal: "bounded: back near empty",
      met: afterDay - empty < 0.05 * (withQuota - empty),
    },
    ...figures,
  ],
});
