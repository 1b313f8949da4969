/**
 * Two hosted sites on one Redis and on a 3-primary Redis Cluster: each site's store under its
 * own prefix, the used signatures in the service's ledger (ledgerPrefix), as
 * src/runtime/app-layer.ts builds them. A transfer claimed on site A is refused on site B (one
 * ledger for the service), also when both race; and each site's keys stay apart by their
 * prefix. On the cluster the money keys of both sites share the service's hash tag (one slot:
 * a claim spans the ledger and a site's quota), while each site's paid results hash on a tag of
 * their own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import type { Cluster } from "ioredis";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { close, connect, type RedisAddress } from "../../adapters/store-redis/redis-client.ts";
import { isCluster } from "../../adapters/store-redis/store-client.ts";
import { PaidResults } from "../../core/ports/paid-results.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { QuotaStore } from "../../core/ports/quota-store.ts";
import { clusterForSuite, keysOnEveryNode, nodeOfKeys } from "../support/redis-cluster.ts";
import { describeWithRedis, type RedisServer, rawClient, startRedisServer } from "../support/redis-server.ts";
import { T0 } from "../support/store-fixtures.ts";

const LIMITS = { freePerDay: 3, paidDailyCap: 1000, holdTtlMs: 30_000 };
const SERVICE = RedisStore.DEFAULT_KEY_PREFIX;
const siteA = `${SERVICE}site:a:`;
const siteB = `${SERVICE}site:b:`;

/** Site A's and site B's stores on `url`, each its own prefix, one ledger. */
const twoSites = (url: RedisAddress) => {
  const open = (keyPrefix: string) =>
    ManagedRuntime.make(RedisStore.layer({ url, limits: LIMITS, keyPrefix, ledgerPrefix: SERVICE }));
  const [a, b] = [open(siteA), open(siteB)];
  // A client of its own per test: the sites' prefixes are the same in every test.
  const client = `client-${crypto.randomUUID()}`;
  const claim = (site: typeof a, signature: string, identity = client) =>
    site.runPromise(
      Effect.match(
        PaymentStore.use((p) => p.claim(signature, identity, 5, T0)),
        { onSuccess: (view) => view.remaining, onFailure: (error) => error._tag },
      ),
    );
  const remaining = (site: typeof a, identity = client) =>
    site.runPromise(
      Effect.map(
        QuotaStore.use((q) => q.view(identity, T0)),
        (view) => view.remaining,
      ),
    );
  return { a, b, client, claim, remaining, dispose: () => Promise.all([a.dispose(), b.dispose()]) };
};

const ledgerSuite = (name: string, target: () => RedisAddress) =>
  describe(`one ledger across sites (${name})`, () => {
    test("a transfer claimed on site A is refused on site B, which grants nothing", async () => {
      const sites = twoSites(target());
      try {
        const signature = `sig-${crypto.randomUUID()}`;
        expect(await sites.claim(sites.a, signature)).toBe(3 + 5);
        expect(await sites.claim(sites.b, signature)).toBe("AlreadyClaimed");
        expect(await sites.claim(sites.b, signature, `other-${sites.client}`)).toBe("AlreadyClaimed");
        expect(await sites.remaining(sites.a)).toBe(8);
        expect(await sites.remaining(sites.b)).toBe(3);
        expect(await sites.remaining(sites.b, `other-${sites.client}`)).toBe(3);
      } finally {
        await sites.dispose();
      }
    });

    test("fifty claims on each site at once: exactly one is granted, once", async () => {
      const sites = twoSites(target());
      try {
        const signature = `sig-${crypto.randomUUID()}`;
        const outcomes = await Promise.all(
          Array.from({ length: 100 }, (_, i) => sites.claim(i % 2 === 0 ? sites.a : sites.b, signature)),
        );
        expect(outcomes.filter((outcome) => outcome === 8)).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === "AlreadyClaimed")).toHaveLength(99);
        const granted = (await sites.remaining(sites.a)) + (await sites.remaining(sites.b));
        expect(granted).toBe(3 + 3 + 5);
      } finally {
        await sites.dispose();
      }
    });
  });

describeWithRedis("two sites on one Redis", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(() => server?.stop());
  ledgerSuite("one Redis", () => server.url);

  test("the names are the single-node names: no hash tag", async () => {
    const sites = twoSites(server.url);
    try {
      await sites.claim(sites.a, "sig-plain");
      const raw = rawClient(server.url);
      expect((await raw.keys(`*${sites.client}`)).sort()).toEqual([`${siteA}quota:${sites.client}`]);
      expect(await raw.keys("*sig-plain")).toEqual([`${SERVICE}sig:sig-plain`]);
      raw.disconnect();
    } finally {
      await sites.dispose();
    }
  });
});

describeWithRedis("two sites on a Redis Cluster", () => {
  const cluster = clusterForSuite();
  beforeAll(cluster.start, 60_000);
  afterAll(cluster.stop);
  ledgerSuite("3-primary cluster", () => cluster.target());

  test("a claim that must wait for a replica fails as unavailable (503) when the primaries have none", async () => {
    const runtime = ManagedRuntime.make(
      RedisStore.layer({
        url: cluster.target(),
        limits: LIMITS,
        keyPrefix: siteA,
        waitReplicas: 1,
        waitTimeoutMs: 100,
      }),
    );
    try {
      const exit = await runtime.runPromiseExit(PaymentStore.use((p) => p.claim("sig-wait", "c", 5, T0)));
      expect(JSON.stringify(exit)).toContain("claim held by 0 of 1 Redis replicas after 100 ms");
    } finally {
      await runtime.dispose();
    }
  });

  test("one primary that may evict keys makes the store refuse to start, naming the fix", async () => {
    const node = rawClient(cluster.setup().servers[2]!.url);
    await node.config("SET", "maxmemory-policy", "allkeys-lru");
    try {
      const exit = await Effect.runPromiseExit(
        Effect.scoped(
          Layer.build(RedisStore.layer({ url: cluster.target(), limits: LIMITS, keyPrefix: siteA })),
        ),
      );
      expect(JSON.stringify(exit)).toContain(
        'redis maxmemory-policy is \\"allkeys-lru\\": set it to noeviction',
      );
    } finally {
      await node.config("SET", "maxmemory-policy", "noeviction");
      node.disconnect();
    }
  });

  test("the cluster client never sends a command twice behind the caller's back", async () => {
    const client = await Effect.runPromise(connect({ url: cluster.target() }));
    try {
      expect(isCluster(client)).toBe(true);
      const { options } = client as Cluster;
      // A resend after "Connection is closed" could run a claim that already ran; MOVED/ASK say it did not.
      expect({
        retryDelayOnFailover: options.retryDelayOnFailover,
        retryDelayOnClusterDown: options.retryDelayOnClusterDown,
        enableOfflineQueue: options.enableOfflineQueue,
        scaleReads: options.scaleReads,
        resend: options.redisOptions?.autoResendUnfulfilledCommands,
        retries: options.redisOptions?.maxRetriesPerRequest,
      }).toEqual({
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
        enableOfflineQueue: false,
        scaleReads: "master",
        resend: false,
        retries: 1,
      });
    } finally {
      await Effect.runPromise(close(client));
    }
  });

  test("each site's keys stay apart by its prefix; money on the service's slot, paid results on the site's", async () => {
    const sites = twoSites(cluster.target());
    try {
      await sites.claim(sites.a, "sig-apart-a");
      await sites.claim(sites.b, "sig-apart-b");
      const result = { digest: "d", status: 200, headers: {}, body: "ok", keptAt: T0 };
      for (const site of [sites.a, sites.b])
        await site.runPromise(PaidResults.use((p) => p.keep("route:pay_1", result, T0)));
      const setup = cluster.setup();
      // The money keys: behind the service's tag, then each site's own prefix.
      expect(await keysOnEveryNode(setup, `*${sites.client}`)).toEqual([
        `{${SERVICE}}${siteA}quota:${sites.client}`,
        `{${SERVICE}}${siteB}quota:${sites.client}`,
      ]);
      expect(await keysOnEveryNode(setup, "*sig-apart-*")).toEqual([
        `{${SERVICE}}${SERVICE}sig:sig-apart-a`,
        `{${SERVICE}}${SERVICE}sig:sig-apart-b`,
      ]);
      expect(await keysOnEveryNode(setup, "*pid:route:pay_1")).toEqual([
        `{${siteA}pids}${siteA}pid:route:pay_1`,
        `{${siteB}pids}${siteB}pid:route:pay_1`,
      ]);
      // One node holds every money key of both sites (one slot); a site's result sits with its index.
      const nodes = await nodeOfKeys(setup, "*");
      const money = [...nodes].filter(([key]) => key.startsWith(`{${SERVICE}}`)).map(([, port]) => port);
      expect(new Set(money).size).toBe(1);
      for (const site of [siteA, siteB])
        expect(nodes.get(`{${site}pids}${site}pid:route:pay_1`)).toBe(nodes.get(`{${site}pids}${site}pids`)!);
      const slotOf = async (key: string) => {
        const raw = rawClient(setup.servers[0]!.url);
        try {
          return Number(await raw.call("CLUSTER", "KEYSLOT", key));
        } finally {
          raw.disconnect();
        }
      };
      // The two sites' paid results hash on different tags: their slots differ.
      expect(await slotOf(`{${siteA}pids}`)).not.toBe(await slotOf(`{${siteB}pids}`));
    } finally {
      await sites.dispose();
    }
  });

  // Last: it stops a primary of the suite's cluster.
  test("readiness pings every primary: one down fails it as unavailable, naming the cluster", async () => {
    const runtime = ManagedRuntime.make(
      RedisStore.layer({ url: cluster.target(), limits: LIMITS, keyPrefix: siteA }),
    );
    try {
      expect(
        await runtime.runPromise(
          Effect.as(
            QuotaStore.use((q) => q.ping),
            "ok",
          ),
        ),
      ).toBe("ok");
      await cluster.setup().servers[2]!.down();
      const exit = await runtime.runPromiseExit(QuotaStore.use((q) => q.ping));
      expect(JSON.stringify(exit)).toContain("StoreUnavailable");
      expect(JSON.stringify(exit)).toContain("Redis at the cluster 127.0.0.1:");
    } finally {
      await runtime.dispose();
    }
  });
});
