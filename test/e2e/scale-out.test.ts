/**
 * Two instances of the real service behind one proxy (the project's tiny round-robin proxy),
 * sharing one real redis-server: under concurrent requests spread over both, every client
 * gets exactly its quota of answers, and a transfer submitted many times at once through both
 * instances is granted exactly once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { chainEnv, startTestChain, type TestChain } from "../support/localnet.ts";
import { loadTestEnv, send } from "../support/mixed-load.ts";
import { type RedisServer, redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { buildIndex, type ServiceProcess, startService } from "../support/service-process.ts";
import { startTinyProxy, type TinyProxy } from "../support/tiny-proxy.ts";

const FREE = 3;
let redis: RedisServer | undefined;
let chain: TestChain | undefined;
let instances: ServiceProcess[] = [];
let proxy: TinyProxy | undefined;
let indexPath: string | undefined;

describe.skipIf(!redisServerAvailable())("two instances behind one proxy, one Redis", () => {
  beforeAll(async () => {
    [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
    indexPath = await buildIndex();
    const env = {
      INDEX_PATH: indexPath,
      REDIS_URL: redis.url,
      ...loadTestEnv(FREE),
      ...chainEnv(chain),
    };
    instances = await Promise.all([startService({ env }), startService({ env })]);
    proxy = await startTinyProxy(instances.map((instance) => instance.url));
  }, 60_000);
  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(instances.map((instance) => instance.dispose()));
    await chain?.stop();
    await redis?.stop();
    if (indexPath !== undefined) rmSync(dirname(indexPath), { recursive: true, force: true });
  });

  test("20 clients x 10 simultaneous chats over both instances: exactly 3 answers each", async () => {
    const clients = Array.from({ length: 20 }, (_, i) => `10.3.0.${i + 1}`);
    const results = await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: 10 }, async () => ({
          client,
          ...(await send(proxy!.url, "/api/chat", client, { message: "How do I install Widgetron?" })),
        })),
      ),
    );
    for (const client of clients) {
      const mine = results.filter((result) => result.client === client);
      expect({ client, answered: mine.filter((r) => r.status === 200).length }).toEqual({
        client,
        answered: FREE,
      });
      expect(mine.filter((r) => r.status === 402).length).toBe(10 - FREE);
    }
    expect(proxy!.counts.every((count) => count >= 50)).toBe(true); // both instances served
  }, 60_000);

  test("one transfer submitted 10 times at once through both instances: granted once", async () => {
    const signature = await chain!.sendUsdc({ units: 50_000n });
    const body = { signature, amount: 0.05, token: "USDC" };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(proxy!.url, "/api/payment", `10.4.0.${(i % 2) + 1}`, body)),
    );
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    expect(results.filter((r) => r.code === "SIGNATURE_ALREADY_USED").length).toBe(9);
    const status = await Promise.all(
      ["10.4.0.1", "10.4.0.2"].map(async (client) => {
        const res = await fetch(`${proxy!.url}/api/status`, { headers: { "X-Forwarded-For": client } });
        return (await res.json()).remaining as number;
      }),
    );
    expect(status.sort()).toEqual([FREE, FREE + 50]);
  }, 60_000);
});
