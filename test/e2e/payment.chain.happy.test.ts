/**
 * POST /api/payment end to end: real signed SPL transfers on the local chain, read over
 * JSON-RPC by the real ChainSolana adapter, through the real app.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { startTestChain } from "../support/localnet.ts";
import { type TestAppOptions, testApps } from "../support/test-app.ts";

let chain: Awaited<ReturnType<typeof startTestChain>>;
const build = testApps();
const app = (options: TestAppOptions = {}) =>
  build({
    freeQueries: 0,
    ...options,
    chain: {
      layer: ChainSolana.layer({ rpcUrl: chain.url, baseDelayMs: 20, timeoutMs: 400 }),
      usdcMint: chain.mint,
      wallet: chain.serviceWallet,
    },
  });

beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.stop());

describe("paying with USDC on the local chain", () => {
  test.each([
    [0.01, 10_000n, 10],
    [0.05, 50_000n, 50],
    [0.1, 100_000n, 100],
    [0.5, 500_000n, 500],
    [1, 1_000_000n, 1000],
  ])(
    "%p USDC grants %p units -> %p queries, visible in /api/status and usable",
    async (amount, units, queries) => {
      const t = app();
      const signature = await chain.sendUsdc({ units });
      const res = await t.pay({ signature, amount, token: "USDC" });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({
        success: true,
        signature,
        queriesGranted: queries,
        rateLimit: { remaining: queries, requiresPayment: false },
      });
      expect((await (await t.call("/api/status")).json()).remaining).toBe(queries);
      expect((await t.chat("what now?")).status).toBe(200);
      expect((await (await t.call("/api/status")).json()).remaining).toBe(queries - 1);
    },
  );

  test("a payment within the 1% tolerance is accepted", async () => {
    const t = app();
    const signature = await chain.sendUsdc({ units: 99_000n });
    expect((await (await t.pay({ signature, amount: 0.1, token: "USDC" })).json()).queriesGranted).toBe(100);
  });

  test("a transfer carrying the claimant's own memo is accepted; split transfers are summed", async () => {
    const t = app();
    const info = await (await t.call("/api/payment/info")).json();
    expect(info).toMatchObject({ recipient: chain.serviceWallet, usdcMint: chain.mint });
    const withMemo = await chain.sendUsdc({ units: 10_000n, memo: info.memo });
    expect((await t.pay({ signature: withMemo, amount: 0.01, token: "USDC" })).status).toBe(200);
    const split = await chain.sendUsdcSplit({ parts: [20_000n, 30_000n], separateAccount: true });
    expect(
      (await (await t.pay({ signature: split, amount: 0.05, token: "USDC" })).json()).queriesGranted,
    ).toBe(50);
  });

  test("not confirmed yet -> 400 'not confirmed', then success after the delay, as the widget retries", async () => {
    const t = app();
    chain.localnet.setConfirmationDelay(1500);
    try {
      const signature = await chain.sendUsdc({ units: 10_000n });
      const first = await t.pay({ signature, amount: 0.01, token: "USDC" });
      expect(first.status).toBe(400);
      const body = await first.json();
      expect(body.code).toBe("TRANSACTION_NOT_CONFIRMED");
      expect(body.retryable).toBe(true);
      // Retried at a widget's pace (it waits 5 s; 400 ms here): every retry is a chain lookup
      // from the client's budget of 30 a minute, which a 50 ms loop would spend in 1.5 s.
      let status = 400;
      for (const deadline = performance.now() + 8000; status !== 200 && performance.now() < deadline; ) {
        await Bun.sleep(400);
        status = (await t.pay({ signature, amount: 0.01, token: "USDC" })).status;
      }
      expect(status).toBe(200);
    } finally {
      chain.localnet.setConfirmationDelay(0);
    }
  });
});
