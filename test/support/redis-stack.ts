/**
 * The real service on a real redis-server and a local chain, with a fixture index: what the
 * fault tests start. `stop` ends all of it (for afterAll), whatever was started.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { chainEnv, startTestChain, type TestChain } from "./localnet.ts";
import { type RedisServer, startRedisServer } from "./redis-server.ts";
import { buildIndex, type ServiceProcess, startService } from "./service-process.ts";

export interface RedisStack {
  readonly redis: RedisServer;
  readonly chain: TestChain;
  /** The service as started; after a restart, the test holds the new one. */
  readonly service: ServiceProcess;
  readonly stop: () => Promise<void>;
}

/** Starts Redis, the chain and the service with `env` (besides the index, Redis and chain variables). */
export const startRedisStack = async (env: Readonly<Record<string, string>> = {}): Promise<RedisStack> => {
  const [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
  const indexPath = await buildIndex();
  const service = await startService({
    env: { INDEX_PATH: indexPath, REDIS_URL: redis.url, ...chainEnv(chain), ...env },
  }).catch(async (error: unknown) => {
    await Promise.all([redis.stop(), chain.stop()]);
    throw error;
  });
  return {
    redis,
    chain,
    service,
    stop: async () => {
      await service.dispose();
      await chain.stop();
      await redis.stop();
      rmSync(dirname(indexPath), { recursive: true, force: true });
    },
  };
};
