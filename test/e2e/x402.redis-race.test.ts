/**
 * Two example-server instances sharing one real redis-server: a payment request issued by one
 * is paid at the other, and one header raced across both gives exactly one paid response.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { type ExampleServer, startExampleServer } from "../support/x402-example.ts";

describe.skipIf(!redisServerAvailable())("x402 on two instances sharing Redis", () => {
  let chain: TestChain;
  let redis: RedisServer;
  let first: ExampleServer;
  let second: ExampleServer;
  beforeAll(async () => {
    chain = await startTestChain();
    redis = await startRedisServer();
    first = await startExampleServer(chain, { redisUrl: redis.url });
    second = await startExampleServer(chain, { redisUrl: redis.url });
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await redis?.stop();
    await chain?.stop();
  });

  test("a request issued by one instance is paid at the other", async () => {
    const { header } = await first.pay("/premium-data");
    expect((await second.get("/premium-data", header)).status).toBe(200);
    expect((await first.get("/premium-data", header)).status).toBe(403);
  });

  test("one header raced across both instances: exactly one success", async () => {
    for (let round = 0; round < 3; round++) {
      const { header } = await first.pay("/tiered-data/basic");
      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 === 0 ? first : second).get("/tiered-data/basic", header),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 403)).toHaveLength(15);
      const reasons = await Promise.all(
        responses
          .filter((response) => response.status === 403)
          .map(
            async (response) => ((await response.json()) as { Details: { reason: string } }).Details.reason,
          ),
      );
      expect(new Set(reasons)).toEqual(new Set(["payment-already-used"]));
    }
  });
});
