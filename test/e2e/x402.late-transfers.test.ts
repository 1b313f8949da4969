/**
 * A late transfer on a paywalled route is served, never kept (core/payments/late-transfer.ts):
 * the example server's /premium-data paid in the spec's dialect by a transfer that lands 100 s
 * after expires_at (refusing it 402 PAYMENT_EXPIRED would keep the payer's USDC), or
 * presented after the request's 10-minute grace; a route that opted out refuses it naming the
 * payment and lists it for refund; two instances sharing Redis serve one late transfer once.
 * Real transfers on the local chain.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { paymentMemo } from "../../core/payments/x402.ts";
import { decodeReceiptHeader } from "../../core/payments/x402-receipt.ts";
import { buildAuthorization } from "../../src/payments/client/payment-client.ts";
import { expiredRequest } from "../support/expired-request.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { redisServerAvailable, startRedisServer } from "../support/redis-server.ts";
import { type ExampleServer, startExampleServer } from "../support/x402-example.ts";

const PRICE = 100_000n;
/** The chain's clock 400 s ahead: a transfer lands 100 s after a fresh request's expires_at (300 s). */
const AHEAD_MS = 400_000;

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.stop());

/** `units` with `memo`, landing `aheadMs` later by the chain's clock. */
const lateTransfer =
  (units: bigint, aheadMs = AHEAD_MS) =>
  async (memo: string) => {
    chain.localnet.setClockOffsetMs(aheadMs);
    return chain.sendUsdc({ units, memo }).finally(() => chain.localnet.setClockOffsetMs(0));
  };

const receiptOf = (response: Response) =>
  decodeReceiptHeader(response.headers.get("X-Payment-Receipt") ?? "");

describe("a late transfer on a paywalled route (the default: served)", () => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer(chain);
  });
  afterAll(() => server?.stop());

  test("100 s after expires_at, the full price: 200 with its receipt, once", async () => {
    const request = await server.requestOf("/premium-data");
    const before = await chain.usdcBalance(chain.serviceWallet);
    const signature = await lateTransfer(PRICE)(paymentMemo(request.payment_id));
    const { header } = await buildAuthorization(request, server.wallet(), signature);
    const served = await server.get("/premium-data", header);
    expect(served.status).toBe(200);
    expect(receiptOf(served)).toMatchObject({
      payment_id: request.payment_id,
      transaction_hash: signature,
      amount: "0.10",
      payer: chain.payer.address,
    });
    expect(await chain.usdcBalance(chain.serviceWallet)).toBe(before + PRICE);
    // Presented again: already used, nothing served twice.
    const replayed = await server.get("/premium-data", header);
    expect(replayed.status).toBe(403);
    expect(((await replayed.json()) as { Details: { reason: string } }).Details.reason).toBe(
      "payment-already-used",
    );
    expect(await server.unattributed()).toEqual([]);
  });

  test("presented 20 minutes after expires_at (past the 10-minute grace): served", async () => {
    const fresh = await server.requestOf("/premium-data");
    const request = await expiredRequest(server.runtime, fresh, "GET", Date.now() - 20 * 60_000);
    const signature = await chain.sendUsdc({ units: PRICE, memo: paymentMemo(request.payment_id) });
    const { header } = await buildAuthorization(request, server.wallet(), signature);
    const served = await server.get("/premium-data", header);
    expect(served.status).toBe(200);
    expect(receiptOf(served)?.transaction_hash).toBe(signature);
  });

  test("a request past its grace still admits lookups of 3 signatures at most (the budget holds)", async () => {
    const fresh = await server.requestOf("/premium-data");
    const request = await expiredRequest(server.runtime, fresh, "GET", Date.now() - 20 * 60_000);
    const reasons: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { header } = await buildAuthorization(request, server.wallet(), chain.randomSignature());
      const refused = await server.get("/premium-data", header);
      reasons.push(((await refused.json()) as { Details: { reason: string } }).Details.reason);
    }
    expect(reasons).toEqual([
      "transaction-not-found",
      "transaction-not-found",
      "transaction-not-found",
      "payment-lookups-exhausted",
    ]);
  });

  test("a late transfer of less than the price is refused as before, and nothing is listed", async () => {
    const request = await server.requestOf("/premium-data");
    const signature = await lateTransfer(PRICE - 1n)(paymentMemo(request.payment_id));
    const { header } = await buildAuthorization(request, server.wallet(), signature);
    const refused = await server.get("/premium-data", header);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { Details: { reason: string } }).Details.reason).toBe(
      "amount-insufficient",
    );
    expect(await server.unattributed()).toEqual([]);
  });
});

describe("a route that opted out (LateTransfers: list)", () => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer(chain, { lateTransfers: "list" });
  });
  afterAll(() => server?.stop());

  test("refused PAYMENT_EXPIRED naming the payment, listed once for refund; a timely one is served", async () => {
    const request = await server.requestOf("/premium-data");
    const signature = await lateTransfer(PRICE)(paymentMemo(request.payment_id));
    const { header } = await buildAuthorization(request, server.wallet(), signature);
    for (let round = 0; round < 2; round++) {
      const refused = await server.get("/premium-data", header);
      expect(refused.status).toBe(402);
      expect(refused.headers.get("X-Payment-Receipt")).toBeNull();
      const body = (await refused.json()) as { Code: string; Details: Record<string, unknown> };
      expect(body.Code).toBe("PAYMENT_EXPIRED");
      expect(body.Details).toMatchObject({
        reason: "payment-late-listed",
        payment_id: request.payment_id,
        transaction_hash: signature,
        listed_for_refund: true,
        received: "0.10",
      });
    }
    const listed = await server.unattributed();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      signature,
      payer: chain.payer.address,
      units: PRICE,
      reason: "late-refused",
      paymentId: request.payment_id,
    });
    // In time, the same route serves as ever.
    const { header: timely } = await server.pay("/premium-data");
    expect((await server.get("/premium-data", timely)).status).toBe(200);
    expect(await server.unattributed()).toHaveLength(1);
  });
});

describe.skipIf(!redisServerAvailable())("two instances sharing Redis", () => {
  test("one late transfer raced across both: served once; an opted-out pair lists it once", async () => {
    const redis = await startRedisServer();
    const servers = await Promise.all([
      startExampleServer(chain, { redisUrl: redis.url }),
      startExampleServer(chain, { redisUrl: redis.url }),
    ]);
    const strict = await Promise.all([
      startExampleServer(chain, { redisUrl: redis.url, lateTransfers: "list" }),
      startExampleServer(chain, { redisUrl: redis.url, lateTransfers: "list" }),
    ]);
    try {
      const [first, second] = servers as [ExampleServer, ExampleServer];
      const request = await first.requestOf("/premium-data");
      const signature = await lateTransfer(PRICE)(paymentMemo(request.payment_id));
      const { header } = await buildAuthorization(request, first.wallet(), signature);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? first : second).get("/premium-data", header)),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 403, 403, 403, 403, 403]);

      const [one, two] = strict as [ExampleServer, ExampleServer];
      const listedRequest = await one.requestOf("/premium-data");
      const listedSignature = await lateTransfer(PRICE)(paymentMemo(listedRequest.payment_id));
      const listedHeader = (await buildAuthorization(listedRequest, one.wallet(), listedSignature)).header;
      const refusals = await Promise.all(
        Array.from({ length: 4 }, (_, i) => (i % 2 === 0 ? one : two).get("/premium-data", listedHeader)),
      );
      expect(refusals.map((response) => response.status)).toEqual([402, 402, 402, 402]);
      // The same list on every instance sharing the store, one entry.
      for (const instance of [one, two, first])
        expect((await instance.unattributed()).map((entry) => entry.signature)).toEqual([listedSignature]);
    } finally {
      await Promise.all([...servers, ...strict].map((server) => server.stop()));
      await redis.stop();
    }
  });
});
