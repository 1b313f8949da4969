/** The store's Redis: one URL, Sentinel or a cluster, exactly one; the password and WAIT rules. */
import { describe, expect, test } from "bun:test";
import * as Redacted from "effect/Redacted";
import { parsedConfig as ok, configProblems as problems } from "../support/parsed-config.ts";

const SENTINELS = "10.0.0.1:26379, sentinel-b.internal:26380,[::1]:26381";

describe("REDIS_SENTINELS", () => {
  test("lists the sentinels and the master's name; the data nodes' password stays Redacted", () => {
    const config = ok({
      REDIS_SENTINELS: SENTINELS,
      REDIS_SENTINEL_MASTER: "docs",
      REDIS_PASSWORD: "pw-of-nodes",
    });
    expect(config.redis?.kind).toBe("sentinel");
    if (config.redis?.kind !== "sentinel") return;
    expect(config.redis.sentinels).toEqual([
      { host: "10.0.0.1", port: 26379 },
      { host: "sentinel-b.internal", port: 26380 },
      { host: "::1", port: 26381 },
    ]);
    expect(config.redis.master).toBe("docs");
    expect(config.redis.password && Redacted.value(config.redis.password)).toBe("pw-of-nodes");
    expect(String(config.redis.password)).not.toContain("pw-of-nodes");
  });

  test("money writes wait for one replica by default behind Sentinel, as set otherwise", () => {
    expect(ok({ REDIS_SENTINELS: SENTINELS, REDIS_SENTINEL_MASTER: "docs" }).redisWaitReplicas).toBe(1);
    expect(
      ok({ REDIS_SENTINELS: SENTINELS, REDIS_SENTINEL_MASTER: "docs", REDIS_WAIT_REPLICAS: "0" })
        .redisWaitReplicas,
    ).toBe(0);
    expect(ok({ REDIS_URL: "redis://r:6379" }).redisWaitReplicas).toBe(0);
  });

  test("needs REDIS_SENTINEL_MASTER, and the master needs the sentinels", () => {
    expect(problems({ REDIS_SENTINELS: SENTINELS })).toEqual([
      "REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS (the name the sentinels monitor)",
    ]);
    expect(problems({ REDIS_SENTINEL_MASTER: "docs" })).toEqual([
      "REDIS_SENTINEL_MASTER: needs REDIS_SENTINELS",
    ]);
  });

  test("every item that is not host:port is named", () => {
    expect(
      problems({ REDIS_SENTINELS: "10.0.0.1:26379,10.0.0.2,h:0,h:70000", REDIS_SENTINEL_MASTER: "docs" }),
    ).toEqual([
      'REDIS_SENTINELS: "10.0.0.2" is not host:port, e.g. 10.0.0.1:26379',
      'REDIS_SENTINELS: "h:0" is not host:port, e.g. 10.0.0.1:26379',
      'REDIS_SENTINELS: "h:70000" is not host:port, e.g. 10.0.0.1:26379',
    ]);
  });
});

describe("REDIS_CLUSTER_NODES", () => {
  test("lists the seed nodes", () => {
    expect(ok({ REDIS_CLUSTER_NODES: "10.0.0.1:7000,10.0.0.2:7001" }).redis).toEqual({
      kind: "cluster",
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7001 },
      ],
      password: undefined,
    });
  });

  test("money writes wait on a cluster only when asked", () => {
    expect(ok({ REDIS_CLUSTER_NODES: "10.0.0.1:7000" }).redisWaitReplicas).toBe(0);
    expect(ok({ REDIS_CLUSTER_NODES: "10.0.0.1:7000", REDIS_WAIT_REPLICAS: "1" }).redisWaitReplicas).toBe(1);
  });
});

describe("exactly one of them", () => {
  test("two or three are refused, named", () => {
    expect(problems({ REDIS_URL: "redis://r:6379", REDIS_CLUSTER_NODES: "10.0.0.1:7000" })).toEqual([
      "REDIS_URL, REDIS_CLUSTER_NODES: set one of them, not 2",
    ]);
    expect(
      problems({
        REDIS_URL: "redis://r:6379",
        REDIS_SENTINELS: SENTINELS,
        REDIS_SENTINEL_MASTER: "docs",
        REDIS_CLUSTER_NODES: "10.0.0.1:7000",
      }),
    ).toEqual(["REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES: set one of them, not 3"]);
  });

  test("REDIS_PASSWORD is for Sentinel and cluster nodes; a URL carries its own; never shown", () => {
    const url = problems({ REDIS_URL: "redis://r:6379", REDIS_PASSWORD: "hunter2-secret" });
    expect(url).toEqual(["REDIS_PASSWORD: not with REDIS_URL (the URL carries its own password)"]);
    expect(problems({ REDIS_PASSWORD: "hunter2-secret" })).toEqual([
      "REDIS_PASSWORD: needs REDIS_SENTINELS or REDIS_CLUSTER_NODES",
    ]);
  });

  test("any of them satisfies mainnet-beta's need of a durable store", () => {
    const mainnet = {
      CHAIN_NETWORK: "mainnet-beta",
      USDC_MINT_ADDRESS: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      PAYMENT_WALLET_ADDRESS: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    };
    expect(ok({ ...mainnet, REDIS_SENTINELS: SENTINELS, REDIS_SENTINEL_MASTER: "docs" }).redis?.kind).toBe(
      "sentinel",
    );
    expect(ok({ ...mainnet, REDIS_CLUSTER_NODES: "10.0.0.1:7000" }).redis?.kind).toBe("cluster");
  });
});
