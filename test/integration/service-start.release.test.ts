/**
 * The service's parts start as scoped layers (src/runtime/service-layers.ts): a start that fails
 * half way releases what it opened, the last started first. Here the real local chain and the
 * x402 facilitator over it start, then the root site's store cannot reach its Redis: the start
 * fails with that error, the facilitator's fee-payer watch and the chain are stopped (its RPC no
 * longer answers), and nothing else was started. A start that succeeds stops every part.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Result from "effect/Result";
import { parseConfig } from "../../core/config/config.ts";
import { startLocalnet } from "../../dev/localnet/index.ts";
import { serviceLimiters } from "../../src/http/service-limiters.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import { ensureDemoIndex } from "../../src/runtime/demo-index.ts";
import type { LocalChainStarter } from "../../src/runtime/resolve-chain.ts";
import { startService } from "../../src/runtime/service-layers.ts";
import { freePort } from "../support/free-port.ts";

/** A local chain that records what happens to it. */
const recordedChain =
  (events: string[]): LocalChainStarter =>
  async () => {
    const localnet = await startLocalnet();
    await localnet.mintTokens(localnet.serviceWallet, 0n);
    events.push("chain started");
    return {
      chain: {
        network: "localnet",
        usdcMint: localnet.mint,
        wallet: localnet.serviceWallet,
        rpcUrl: localnet.url,
        walletSecretKey: undefined,
      },
      stop: async () => {
        events.push("chain stopped");
        await localnet.stop();
      },
      feePayer: localnet.feePayer,
    };
  };

const answers = async (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" }),
  }).then(
    (response) => response.ok,
    () => false,
  );

const start = async (env: Record<string, string>, events: string[]) => {
  const config = Result.getOrThrow(parseConfig(env));
  const { logger, lines } = memoryLogger();
  let rpcUrl = "";
  const chain = recordedChain(events);
  const service = startService({
    config,
    env,
    logger,
    metrics: makeMetrics(),
    events: {},
    localChain: async (settings, log) => {
      const resolved = await chain(settings, log);
      rpcUrl = resolved.chain.rpcUrl;
      return resolved;
    },
    signIn: () => undefined,
    receiptKey: () => undefined,
    limiters: serviceLimiters(),
  });
  return { service, lines, rpcUrl: () => rpcUrl };
};

/** An index of its own (a fresh clone has none at the default path): only the store may fail here. */
const INDEX_PATH = join(mkdtempSync(join(tmpdir(), "service-start-")), "index.bin");
beforeAll(async () => {
  await ensureDemoIndex(Result.getOrThrow(parseConfig({ INDEX_PATH })), memoryLogger().logger);
}, 120_000);

describe("the service's start", () => {
  test("failing half way (the store's Redis is not there) releases the facilitator and the chain", async () => {
    const events: string[] = [];
    const closed = await freePort();
    const { service, lines, rpcUrl } = await start(
      { REDIS_URL: `redis://127.0.0.1:${closed}`, INDEX_PATH },
      events,
    );
    const failure = await service.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as { _tag?: string })._tag).toBe("StoreUnavailable");
    expect(events).toEqual(["chain started", "chain stopped"]);
    // The facilitator had started over the chain (its fee payer watched), then was released.
    expect(lines.some((line) => String(line.msg).includes("x402 v2"))).toBe(true);
    expect(await answers(rpcUrl())).toBe(false);
  }, 60_000);

  test("a release that fails does not hide the start's own error", async () => {
    const events: string[] = [];
    const closed = await freePort();
    const env = { REDIS_URL: `redis://127.0.0.1:${closed}`, INDEX_PATH };
    const config = Result.getOrThrow(parseConfig(env));
    const chain = recordedChain(events);
    const failure = await startService({
      config,
      env,
      logger: memoryLogger().logger,
      metrics: makeMetrics(),
      events: {},
      localChain: async (settings, log) => {
        const resolved = await chain(settings, log);
        return {
          ...resolved,
          stop: async () => {
            await resolved.stop();
            throw new Error("the chain would not stop");
          },
        };
      },
      signIn: () => undefined,
      receiptKey: () => undefined,
      limiters: serviceLimiters(),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as { _tag?: string })._tag).toBe("StoreUnavailable");
    expect(events).toEqual(["chain started", "chain stopped"]);
  }, 60_000);

  test("a start that succeeds stops every part, the chain last", async () => {
    const events: string[] = [];
    const { service, rpcUrl } = await start({ INDEX_PATH }, events);
    const started = await service;
    expect(await answers(rpcUrl())).toBe(true);
    expect(started.runtime).toBeDefined();
    await started.stop();
    expect(events).toEqual(["chain started", "chain stopped"]);
    expect(await answers(rpcUrl())).toBe(false);
  }, 60_000);
});
