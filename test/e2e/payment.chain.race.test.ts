/** 100 parallel submissions of one real transfer, spread over two app instances on one Redis: one grant. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { chainReaderOf, startTestChain } from "../support/localnet.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

const limits = { freePerDay: 0, paidDailyCap: 1000, holdTtlMs: 120_000 };

describe.skipIf(!redisServerAvailable())("double-spend race on a shared Redis", () => {
  let chain: Awaited<ReturnType<typeof startTestChain>>;
  let redis: RedisServer;
  // Built once for the whole block, so disposed after all its tests (before the servers stop).
  const build = testApps(afterAll);
  let apps: TestApp[] = [];

  beforeAll(async () => {
    [chain, redis] = await Promise.all([startTestChain(), startRedisServer()]);
    apps = [0, 1].map(() =>
      build({
        freeQueries: 0,
        store: RedisStore.layer({ url: redis.url, limits }),
        chain: chainReaderOf(chain),
      }),
    );
  });
  afterAll(() => Promise.all([chain.stop(), redis.stop()]));

  test("100 concurrent claims from 100 clients -> exactly 1 grant, 99 'already used'", async () => {
    const signature = await chain.sendUsdc({ units: 100_000n });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        apps[i % 2]!.pay({ signature, amount: 0.1, token: "USDC" }, `198.51.100.${i + 1}`).then(
          async (res) => ({
            status: res.status,
            body: await res.json(),
            client: `198.51.100.${i + 1}`,
          }),
        ),
      ),
    );
    const granted = responses.filter((r) => r.status === 200);
    expect(granted).toHaveLength(1);
    expect(
      responses.filter((r) => r.status === 400 && r.body.code === "SIGNATURE_ALREADY_USED"),
    ).toHaveLength(99);
    const remaining = await Promise.all(
      responses.map(
        async (r) => (await (await apps[0]!.call("/api/status", {}, r.client)).json()).remaining as number,
      ),
    );
    expect(remaining.reduce((sum, n) => sum + n, 0)).toBe(100);
    expect(remaining.filter((n) => n === 100)).toHaveLength(1);
  });
});
