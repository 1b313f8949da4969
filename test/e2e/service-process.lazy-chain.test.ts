/**
 * The local chain (LiteSVM, a native module) is loaded only when the local chain is used: the
 * service as `npm start` runs it (dev/demo/main.ts) never loads it on a configured network, from
 * start to graceful stop. The
 * control, with nothing configured (the demo chain), shows that the probe does see LiteSVM.
 * Likewise the Redis client (ioredis) is loaded only with REDIS_URL set (a smaller idle service).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { startRedisServer } from "../support/redis-server.ts";
import { BUN_ENTRY, buildIndex, REPO_ROOT, startService } from "../support/service-process.ts";

const PROBED_SERVICE = [
  process.execPath,
  "--preload",
  join(REPO_ROOT, "test/support/loaded-modules-probe.ts"),
  ...BUN_ENTRY.slice(1),
];
const DEVNET = {
  CHAIN_NETWORK: "devnet",
  // Nothing may leave the machine, though nothing should call the RPC node at all here.
  SOLANA_RPC_URL: "http://127.0.0.1:9",
  USDC_MINT_ADDRESS: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  PAYMENT_WALLET_ADDRESS: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
};

let indexPath: string | undefined;

beforeAll(async () => {
  indexPath = await buildIndex();
});
afterAll(() => {
  if (indexPath !== undefined) rmSync(dirname(indexPath), { recursive: true, force: true });
});

/** Starts the service with `env`, asks for the payment info, stops it: the network named and whether LiteSVM was loaded. */
const run = async (env: Record<string, string>) => {
  const service = await startService({ command: PROBED_SERVICE, env: { INDEX_PATH: indexPath!, ...env } });
  try {
    const { network } = await (await service.call("/api/payment/info")).json();
    expect(await service.stop()).toBe(0);
    const probe = service.logs().find((line) => line.probe === "loaded-modules");
    return { network, litesvm: probe?.litesvm, ioredis: probe?.ioredis };
  } finally {
    await service.dispose();
  }
};

test("on a configured network (devnet) LiteSVM is never loaded", async () => {
  expect(await run(DEVNET)).toEqual({ network: "devnet", litesvm: false, ioredis: false });
}, 30_000);

test("control: with no network configured, the demo chain loads LiteSVM and the probe sees it", async () => {
  expect(await run({})).toEqual({ network: "localnet", litesvm: true, ioredis: false });
}, 30_000);

test("with REDIS_URL the Redis client is loaded, and only then", async () => {
  const redis = await startRedisServer();
  try {
    expect(await run({ ...DEVNET, REDIS_URL: redis.url })).toEqual({
      network: "devnet",
      litesvm: false,
      ioredis: true,
    });
  } finally {
    await redis.stop();
  }
}, 30_000);
