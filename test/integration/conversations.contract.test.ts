/**
 * Conversations (core/ports/conversations.ts), one contract on the memory store and on a real
 * redis-server, seen by two instances of one store: a follow-up read on the other instance finds
 * the turns, and the store stays bounded on every axis (turns, conversations, idle time, sizes).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { makeMemoryConversations } from "../../adapters/store-memory/memory-conversations.ts";
import { close, connect } from "../../adapters/store-redis/redis-client.ts";
import { redisConversations } from "../../adapters/store-redis/redis-conversations.ts";
import type { ConversationLimits, Conversations } from "../../core/ports/conversations.ts";
import type { ChatTurn } from "../../core/ports/generator.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { describeWithRedis, type RedisServer, startRedisServer } from "../support/redis-server.ts";

type Store = Conversations["Service"];
type Make = (limits: Partial<ConversationLimits>) => Promise<[Store, Store]>;

const exchange = (i: number): ReadonlyArray<ChatTurn> => [
  { role: "user", content: `question ${i}` },
  { role: "assistant", content: `answer ${i}` },
];
const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.runPromise(effect as Effect.Effect<A>);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const contract = (name: string, make: Make) =>
  describe(`conversations: ${name}`, () => {
    test("an unknown conversation has no turns", async () => {
      const [a] = await make({});
      expect(await run(a.recent(crypto.randomUUID()))).toEqual([]);
    });

    test("a follow-up on the other instance keeps the turns, in order, the last 6 by default", async () => {
      const [a, b] = await make({});
      const id = crypto.randomUUID();
      for (let i = 0; i < 5; i++) await run((i % 2 === 0 ? a : b).append(id, exchange(i)));
      expect(await run(b.recent(id))).toEqual([...exchange(2), ...exchange(3), ...exchange(4)]);
      expect(await run(a.recent(id))).toEqual([...exchange(2), ...exchange(3), ...exchange(4)]);
    });

    test("conversations are separate", async () => {
      const [a, b] = await make({});
      const [x, y] = [crypto.randomUUID(), crypto.randomUUID()];
      await run(a.append(x, exchange(1)));
      await run(b.append(y, exchange(2)));
      expect(await run(b.recent(x))).toEqual(exchange(1));
      expect(await run(a.recent(y))).toEqual(exchange(2));
    });

    test("past the cap in all, the least recently used conversation is dropped", async () => {
      const [a, b] = await make({ maxConversations: 2 });
      const [x, y, z] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      await run(a.append(x, exchange(1)));
      await sleep(5);
      await run(b.append(y, exchange(2)));
      await sleep(5);
      await run(a.append(x, exchange(3))); // x is now the most recent
      await sleep(5);
      await run(b.append(z, exchange(4))); // drops y
      expect(await run(a.recent(x))).toEqual([...exchange(1), ...exchange(3)]);
      expect(await run(a.recent(y))).toEqual([]);
      expect(await run(b.recent(z))).toEqual(exchange(4));
    });

    test("a conversation idle for the TTL is forgotten; activity keeps it alive", async () => {
      const [a, b] = await make({ idleTtlMs: 400 });
      const [idle, busy] = [crypto.randomUUID(), crypto.randomUUID()];
      await run(a.append(idle, exchange(1)));
      await run(a.append(busy, exchange(1)));
      await sleep(250);
      await run(b.append(busy, exchange(2)));
      expect(await run(b.recent(idle))).toEqual(exchange(1));
      await sleep(250);
      expect(await run(b.recent(idle))).toEqual([]);
      expect(await run(a.recent(busy))).toEqual([...exchange(1), ...exchange(2)]);
    });

    test("content is capped, foreign roles are dropped, oversize keys are not stored", async () => {
      const [a, b] = await make({ maxContentChars: 10, maxKeyChars: 64 });
      const id = crypto.randomUUID().slice(0, 20);
      await run(
        a.append(id, [
          { role: "user", content: "x".repeat(100) },
          { role: "system", content: "injected" } as unknown as ChatTurn,
        ]),
      );
      const longKey = "k".repeat(65);
      await run(a.append(longKey, exchange(1)));
      expect(await run(b.recent(id))).toEqual([{ role: "user", content: "x".repeat(10) }]);
      expect(await run(b.recent(longKey))).toEqual([]);
    });
  });

contract("memory", async (limits) => {
  const shared = makeMemoryConversations(limits);
  return [shared, shared];
});

describeWithRedis("conversations on Redis", () => {
  let server: RedisServer;
  const clients: Array<Awaited<ReturnType<typeof openClient>>> = [];
  const openClient = () => Effect.runPromise(connect({ url: server.url }).pipe(Effect.orDie));
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const client of clients) await Effect.runPromise(close(client));
    await server?.stop();
  });
  // A prefix per store, as each site has its own: tests never see each other's index.
  contract("redis", async (limits) => {
    const prefix = `conversations-${crypto.randomUUID()}:`;
    const [first, second] = [await openClient(), await openClient()];
    clients.push(first, second);
    return [redisConversations(first, prefix, limits), redisConversations(second, prefix, limits)];
  });

  test("a stored turn this code did not write is skipped, not passed on as history", async () => {
    const client = await openClient();
    clients.push(client);
    const prefix = `conversations-${crypto.randomUUID()}:`;
    const store = redisConversations(client, prefix);
    await client.rpush(`${prefix}conversation:c`, '{"role":"system","content":"x"}', "not json");
    await run(store.append("c", exchange(1)));
    expect(await run(store.recent("c"))).toEqual(exchange(1));
  });
});

describeWithRedis("conversations on Redis Cluster", () => {
  const cluster = clusterForSuite();
  const clients: Array<Awaited<ReturnType<typeof openClient>>> = [];
  const openClient = () => Effect.runPromise(connect({ url: cluster.target() }).pipe(Effect.orDie));
  beforeAll(cluster.start, 60_000);
  afterAll(async () => {
    for (const client of clients) await Effect.runPromise(close(client));
    await cluster.stop();
  });
  // Each command touches one key, so the conversations spread over the primaries.
  contract("redis-cluster", async (limits) => {
    const prefix = `conversations-${crypto.randomUUID()}:`;
    const [first, second] = [await openClient(), await openClient()];
    clients.push(first, second);
    return [redisConversations(first, prefix, limits), redisConversations(second, prefix, limits)];
  });
});
