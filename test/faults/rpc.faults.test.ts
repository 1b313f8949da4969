/**
 * The Solana RPC slow, failing or answering garbage, on the real local chain with faults
 * injected into its JSON-RPC front: no grant is ever made without a verified transfer, every
 * failure is a clear, retryable answer that comes back in bounded time, and the same transfer
 * is granted exactly once when the RPC is healthy again. Random well-formed signatures that
 * are not on chain are cached as "not found" briefly and limited per client, so they cannot
 * be used to flood the RPC.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { encodeBase58 } from "../../core/base58.ts";
import { CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE as UNKNOWN_SIGNATURES_PER_MINUTE } from "../../core/payments/chain-lookup-budget.ts";
import type { FaultKind } from "../../dev/localnet/index.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { awayFromMinuteEdge } from "../support/minute-window.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

const TIMEOUT_MS = 300;
const MISS_CACHE_MS = 400;
let chain: TestChain;
const build = testApps(afterAll);
let t: TestApp;

/** A well-formed signature no transaction has (64 random bytes). */
const randomSignature = () => encodeBase58(crypto.getRandomValues(new Uint8Array(64)));
const remaining = async (from?: string) => (await (await t.call("/api/status", {}, from)).json()).remaining;

beforeAll(async () => {
  chain = await startTestChain();
  t = build({
    freeQueries: 0,
    chain: {
      layer: ChainSolana.layer({
        rpcUrl: chain.url,
        timeoutMs: TIMEOUT_MS,
        attempts: 3,
        baseDelayMs: 20,
        missCacheMs: MISS_CACHE_MS,
      }),
      usdcMint: chain.mint,
      wallet: chain.serviceWallet,
    },
  });
  // The memory store refuses transfers older than itself, judged by block time in whole
  // seconds: the first transfer must not fall in the second the app was built in.
  await Bun.sleep(1100);
});
afterEach(() => chain.localnet.setFaults({}));
afterAll(() => chain.stop());

describe("an RPC that fails grants nothing and says to retry", () => {
  test.each<[FaultKind, string]>([
    ["timeout", "no reply within"],
    ["http-429", "HTTP 429"],
    ["http-500", "HTTP 500"],
    ["invalid-json", "not valid JSON"],
    ["wrong-shape", "expected shape"],
  ])(
    "%s on every call: 503 + Retry-After in bounded time, then granted once when healthy",
    async (kind, logged) => {
      const from = `198.51.100.${FAULT_INDEX[kind]}`;
      // Credits follow the paying wallet: a wallet of its own per client keeps the counts apart.
      const signature = await chain.sendUsdc({ units: 10_000n, from: await chain.fundPayer() });
      chain.localnet.setFaults({ "*": kind });
      const started = performance.now();
      const res = await t.pay({ signature, amount: 0.01, token: "USDC" }, from);
      const tookMs = performance.now() - started;
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      const body = await res.json();
      expect(body).toMatchObject({ success: false, code: "CHAIN_UNAVAILABLE" });
      expect(body.error).toContain("retry the same signature");
      // Three attempts of at most TIMEOUT_MS each, plus short back-offs: never a hang.
      expect(tookMs).toBeLessThan(3 * TIMEOUT_MS + 1500);
      expect(await remaining(from)).toBe(0);
      const warned = t.lines.filter((line) => line.msg === "dependency unavailable");
      expect(warned.some((line) => String(line.detail).includes(logged))).toBe(true);

      chain.localnet.setFaults({});
      const healthy = await t.pay({ signature, amount: 0.01, token: "USDC" }, from);
      expect({
        status: healthy.status,
        body: healthy.status === 200 ? "" : await healthy.clone().text(),
      }).toEqual({ status: 200, body: "" });
      expect(await remaining(from)).toBe(10);
      const again = await t.pay({ signature, amount: 0.01, token: "USDC" }, from);
      expect((await again.json()).code).toBe("SIGNATURE_ALREADY_USED");
      expect(await remaining(from)).toBe(10);
    },
    20_000,
  );

  test("a flaky RPC (the first two calls fail) is retried inside one request and grants once", async () => {
    const from = "198.51.100.20";
    const signature = await chain.sendUsdc({ units: 20_000n, from: await chain.fundPayer() });
    chain.localnet.setFaults({ getTransaction: { kind: "http-500", times: 2 } });
    const res = await t.pay({ signature, amount: 0.02, token: "USDC" }, from);
    expect(res.status).toBe(200);
    expect(await remaining(from)).toBe(20);
  });

  test("a slow chain (not yet confirmed) is a retryable 400, then one grant", async () => {
    const from = "198.51.100.21";
    chain.localnet.setConfirmationDelay(600);
    try {
      const signature = await chain.sendUsdc({ units: 10_000n, from: await chain.fundPayer() });
      const early = await t.pay({ signature, amount: 0.01, token: "USDC" }, from);
      expect(early.status).toBe(400);
      expect(await early.json()).toMatchObject({ code: "TRANSACTION_NOT_CONFIRMED", retryable: true });
      await Bun.sleep(700);
      expect((await t.pay({ signature, amount: 0.01, token: "USDC" }, from)).status).toBe(200);
      expect(await remaining(from)).toBe(10);
    } finally {
      chain.localnet.setConfirmationDelay(0);
    }
  });
});

describe("random well-formed signatures cannot flood the RPC", () => {
  test("the same unknown signature within the cache time costs the RPC nothing more", async () => {
    const signature = randomSignature();
    const before = chain.localnet.calls("getTransaction");
    for (let i = 0; i < 5; i++) {
      const res = await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.30");
      expect((await res.json()).code).toBe("TRANSACTION_NOT_FOUND");
    }
    expect(chain.localnet.calls("getTransaction") - before).toBe(1);
    await Bun.sleep(MISS_CACHE_MS + 50);
    await t.pay({ signature, amount: 0.01, token: "USDC" }, "198.51.100.30");
    expect(chain.localnet.calls("getTransaction") - before).toBe(2); // the miss expired: asked again
  });

  test(`a client gets ${UNKNOWN_SIGNATURES_PER_MINUTE} unknown signatures a minute, then 429; others are not affected`, async () => {
    const flooder = "198.51.100.31";
    await awayFromMinuteEdge();
    const before = chain.localnet.calls("getTransaction");
    for (let i = 0; i < UNKNOWN_SIGNATURES_PER_MINUTE; i++) {
      const res = await t.pay({ signature: randomSignature(), amount: 0.01, token: "USDC" }, flooder);
      expect(res.status).toBe(400);
    }
    const limited = await t.pay({ signature: randomSignature(), amount: 0.01, token: "USDC" }, flooder);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: "TOO_MANY_UNKNOWN_TRANSACTIONS", retryable: true });
    // The limited request never reached the RPC.
    expect(chain.localnet.calls("getTransaction") - before).toBe(UNKNOWN_SIGNATURES_PER_MINUTE);
    const other = await t.pay({ signature: randomSignature(), amount: 0.01, token: "USDC" }, "198.51.100.32");
    expect(other.status).toBe(400);
  }, 30_000);
});

const FAULT_INDEX: Record<FaultKind, number> = {
  timeout: 1,
  "http-429": 2,
  "http-500": 3,
  "invalid-json": 4,
  "wrong-shape": 5,
};
