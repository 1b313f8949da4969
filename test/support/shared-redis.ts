/**
 * Several instances on one real redis-server, for the race tests: the server for a describe
 * block, and two chat apps (or anything built from a store) sharing it.
 */
import { afterAll, beforeAll } from "bun:test";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { AppParts } from "../../src/runtime/app-layer.ts";
import { type RedisServer, startRedisServer } from "./redis-server.ts";

/** A redis-server started before the block's tests and stopped after them. */
export const useRedisServer = () => {
  const context = {} as { redis: RedisServer };
  beforeAll(async () => {
    context.redis = await startRedisServer();
  });
  afterAll(() => context.redis?.stop());
  return context;
};

/** Two instances built on one Redis store (one free question a day, as the chat tests use). */
export const twoOnRedis = <T>(redisUrl: string, keyPrefix: string, make: (store: AppParts["store"]) => T) => {
  const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
  const store = () => RedisStore.layer({ url: redisUrl, limits, keyPrefix });
  return [make(store()), make(store())] as const;
};
