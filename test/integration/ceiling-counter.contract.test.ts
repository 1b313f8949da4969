/**
 * The ceiling counter (core/ports/ceiling-counter.ts), one contract on memory and on a real
 * redis-server, seen by two instances of one store: a request is counted in every counter or in
 * none, the first full counter is named, a refusal writes nothing, a window's counter frees when
 * the window turns, a distinct counter admits a known member again without counting it, a
 * give-back frees one place, and concurrent admissions from both instances never pass a limit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import { makeMemoryCeilingCounter } from "../../adapters/store-memory/ceilings/memory-ceiling-counter.ts";
import { redisCeilingCounter } from "../../adapters/store-redis/ceilings/redis-ceiling-counter.ts";
import { keyLayout } from "../../adapters/store-redis/keys.ts";
import { close, connect } from "../../adapters/store-redis/redis-client.ts";
import {
  checkOnly,
  distinctCounter,
  windowCounter,
  windowMembersCounter,
} from "../../core/ceilings/counters.ts";
import { CeilingCounter, type Counter } from "../../core/ports/ceiling-counter.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { describeWithRedis, type RedisServer, startRedisServer } from "../support/redis-server.ts";

type Instance = ManagedRuntime.ManagedRuntime<CeilingCounter, unknown>;
const T0 = Date.UTC(2030, 0, 15, 12, 0, 10);
const NEXT_MINUTE = Date.UTC(2030, 0, 15, 12, 1, 0);

const contract = (
  name: string,
  instances: () => [Layer.Layer<CeilingCounter>, Layer.Layer<CeilingCounter>],
) =>
  describe(`ceiling counter: ${name}`, () => {
    let a: Instance;
    let b: Instance;
    beforeAll(() => {
      const [first, second] = instances();
      [a, b] = [ManagedRuntime.make(first), ManagedRuntime.make(second)];
    });
    afterAll(() => Promise.all([a.dispose(), b.dispose()]));
    const admit = async (on: Instance, counters: ReadonlyArray<Counter>, now: number) => {
      const verdict = await on.runPromise(CeilingCounter.use((c) => c.admit(counters, now)));
      return verdict.admitted ? "ok" : `${verdict.refusedBy.ceiling}:${verdict.refusedBy.freesAt}`;
    };
    const giveBack = (on: Instance, counters: ReadonlyArray<Counter>, now: number) =>
      on.runPromise(CeilingCounter.use((c) => c.giveBack(counters, now)));
    const used = (on: Instance, counter: Counter, now: number) =>
      on.runPromise(CeilingCounter.use((c) => c.used(counter, now)));
    const pair = (client: string, now: number, run: string) => [
      windowCounter("rpc-relay-per-client", `${run}:${client}`, 2, now),
      windowCounter("rpc-relay", `${run}:all`, 3, now),
    ];

    test("all or none: the first full counter refuses, names its window's end, and writes nothing", async () => {
      const run = crypto.randomUUID();
      expect(await admit(a, pair("c1", T0, run), T0)).toBe("ok");
      expect(await admit(b, pair("c1", T0, run), T0)).toBe("ok");
      // c1 is full: refused by its own counter, and the global one keeps its third place.
      expect(await admit(a, pair("c1", T0, run), T0)).toBe(`rpc-relay-per-client:${NEXT_MINUTE}`);
      expect(await admit(b, pair("c2", T0, run), T0)).toBe("ok");
      expect(await admit(a, pair("c3", T0, run), T0)).toBe(`rpc-relay:${NEXT_MINUTE}`);
      // The next minute is a new window for both.
      expect(await admit(b, pair("c1", NEXT_MINUTE, run), NEXT_MINUTE)).toBe("ok");
    });

    test("a give-back frees one place of each counter named", async () => {
      const run = crypto.randomUUID();
      const one = [windowCounter("free-questions-across-sites", `${run}:c`, 1, T0)];
      expect(await admit(a, one, T0)).toBe("ok");
      expect(await admit(b, one, T0)).toBe(`free-questions-across-sites:${Date.UTC(2030, 0, 16)}`);
      await giveBack(b, one, T0);
      expect(await admit(a, one, T0)).toBe("ok");
      // A give-back of a counter that holds nothing leaves it at zero, not below.
      const other = [windowCounter("free-questions-across-sites", `${run}:d`, 1, T0)];
      await giveBack(a, other, T0);
      await giveBack(a, other, T0);
      expect(await admit(b, other, T0)).toBe("ok");
      expect(await admit(b, other, T0)).toBe(`free-questions-across-sites:${Date.UTC(2030, 0, 16)}`);
    });

    test("a distinct counter takes a known member again for nothing and refuses a new one past its limit", async () => {
      const run = crypto.randomUUID();
      const of = (member: string) => [distinctCounter("chain-lookups-per-payment", run, member, 2, 60_000)];
      expect(await admit(a, of("s1"), T0)).toBe("ok");
      expect(await admit(b, of("s2"), T0)).toBe("ok");
      expect(await admit(a, of("s1"), T0)).toBe("ok");
      expect(await admit(b, of("s3"), T0)).toBe("chain-lookups-per-payment:undefined");
      // A read names what is held, on either instance, and counts nothing.
      expect(await used(a, of("s9")[0]!, T0)).toBe(2);
      expect(await used(b, of("s9")[0]!, T0)).toBe(2);
    });

    test("a read of a counter says what it holds and counts nothing", async () => {
      const run = crypto.randomUUID();
      const counter = windowCounter("free-questions-across-sites", `${run}:c`, 2, T0);
      expect(await used(a, counter, T0)).toBe(0);
      expect(await admit(a, [counter], T0)).toBe("ok");
      expect(await used(b, counter, T0)).toBe(1);
      expect(await used(b, counter, T0)).toBe(1);
      expect(await admit(b, [counter], T0)).toBe("ok");
      expect(await used(a, counter, T0)).toBe(2);
    });

    test("a windowed counter of members gives back its member once, and nothing for one never counted", async () => {
      const run = crypto.randomUUID();
      const hold = (id: string) => [windowMembersCounter("free-questions-across-sites", run, id, 2, T0)];
      expect(await admit(a, hold("h1"), T0)).toBe("ok");
      expect(await admit(b, hold("h2"), T0)).toBe("ok");
      expect(await admit(a, hold("h3"), T0)).toBe(`free-questions-across-sites:${Date.UTC(2030, 0, 16)}`);
      // A double release of h1, and releases of holds never counted, free one place only.
      await giveBack(a, hold("h1"), T0);
      await giveBack(b, hold("h1"), T0);
      await giveBack(a, hold("h3"), T0);
      await giveBack(b, hold(""), T0);
      expect(await used(a, hold("h9")[0]!, T0)).toBe(1);
      expect(await admit(b, hold("h4"), T0)).toBe("ok");
      expect(await admit(a, hold("h5"), T0)).toBe(`free-questions-across-sites:${Date.UTC(2030, 0, 16)}`);
    });

    test("a kept member still counts and is never given back; keeping a member not there, or a count, changes nothing", async () => {
      const run = crypto.randomUUID();
      const hold = (id: string) => [windowMembersCounter("free-questions-across-sites", run, id, 2, T0)];
      const keep = (on: Instance, counters: ReadonlyArray<Counter>) =>
        on.runPromise(CeilingCounter.use((c) => c.keep(counters, T0)));
      expect(await admit(a, hold("h1"), T0)).toBe("ok");
      await keep(b, hold("h1"));
      // A release after the commit, twice, and a second keep: h1 still holds its place.
      await giveBack(a, hold("h1"), T0);
      await giveBack(b, hold("h1"), T0);
      await keep(a, hold("h1"));
      expect(await used(a, hold("h9")[0]!, T0)).toBe(1);
      // A hold never counted is not made to count by a keep.
      await keep(b, hold("h2"));
      expect(await used(b, hold("h9")[0]!, T0)).toBe(1);
      expect(await admit(b, hold("h2"), T0)).toBe("ok");
      expect(await admit(a, hold("h3"), T0)).toBe(`free-questions-across-sites:${Date.UTC(2030, 0, 16)}`);
      const count = windowCounter("declines-per-client", run, 5, T0);
      expect(await admit(a, [count], T0)).toBe("ok");
      await keep(b, [count]);
      expect(await used(a, count, T0)).toBe(1);
    });

    test("only a count is checked: a check of a set of members is a defect", () => {
      expect(() => checkOnly(windowMembersCounter("free-questions-across-sites", "x", "h1", 2, T0))).toThrow(
        "only a count is checked",
      );
    });

    test("an empty member is a member on both stores, not a plain count", async () => {
      const run = crypto.randomUUID();
      const empty = [windowMembersCounter("free-questions-across-sites", run, "", 1, T0)];
      expect(await admit(a, empty, T0)).toBe("ok");
      expect(await admit(b, empty, T0)).toBe("ok");
      expect(await used(a, empty[0]!, T0)).toBe(1);
    });

    test("a check needs room and counts nothing; a key counted twice in one admit is a defect", async () => {
      const run = crypto.randomUUID();
      const counter = windowCounter("declines-per-client", run, 1, T0);
      expect(await admit(a, [checkOnly(counter)], T0)).toBe("ok");
      expect(await used(b, counter, T0)).toBe(0);
      await giveBack(b, [checkOnly(counter)], T0);
      expect(await admit(b, [counter, checkOnly(counter)], T0)).toBe("ok");
      expect(await admit(a, [checkOnly(counter)], T0)).toBe(`declines-per-client:${Date.UTC(2030, 0, 16)}`);
      const twice = windowCounter("chain-lookups", run, 5, T0);
      await expect(admit(a, [twice, twice], T0)).rejects.toThrow("named twice");
      expect(await used(b, twice, T0)).toBe(0);
    });

    test("concurrent admissions from two instances never pass the limit", async () => {
      const run = crypto.randomUUID();
      const verdicts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          admit(i % 2 === 0 ? a : b, [windowCounter("chain-lookups", run, 7, T0)], T0),
        ),
      );
      expect(verdicts.filter((v) => v === "ok").length).toBe(7);
    });
  });

contract("memory", () => {
  const shared = makeMemoryCeilingCounter().counter;
  return [Layer.succeed(CeilingCounter)(shared), Layer.succeed(CeilingCounter)(shared)];
});

describeWithRedis("ceiling counter on Redis", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  const onRedis = (prefix: string) =>
    Layer.effect(CeilingCounter)(
      Effect.gen(function* () {
        const client = yield* Effect.acquireRelease(connect({ url: server.url }), close);
        return redisCeilingCounter(client, prefix);
      }).pipe(Effect.orDie),
    );
  contract("redis", () => [onRedis("ceilings-a:"), onRedis("ceilings-a:")]);
});

describeWithRedis("ceiling counter on Redis Cluster", () => {
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  // The counters under the store's ceiling prefix: one hash tag, so an admit of several is one slot.
  const onCluster = (prefix: string) =>
    Layer.effect(CeilingCounter)(
      Effect.gen(function* () {
        const client = yield* Effect.acquireRelease(connect({ url: cluster.target() }), close);
        return redisCeilingCounter(client, keyLayout(prefix, prefix, true).ceilingPrefix);
      }).pipe(Effect.orDie),
    );
  contract("redis-cluster", () => [onCluster("ceilings-a:"), onCluster("ceilings-a:")]);
});
