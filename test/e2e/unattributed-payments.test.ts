/**
 * Transfers we cannot attribute are listed for the owner to refund (core/payments/unattributed.ts):
 * POST /api/payment with a transfer to our wallet whose memo is not ours shows, once, in the
 * console's report and in its CSV and JSON export; one whose x402 memo is ours is left to its
 * authorization header. On the memory store and on Redis (two instances, one list). Real
 * transfers on the local chain.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { paymentMemo } from "../../core/payments/x402.ts";
import { readPaymentRequest } from "../../src/payments/client/payment-client.ts";
import { exhaustFreeQuestion } from "../support/chat-402.ts";
import { chainReaderOf, startTestChain, type TestChain } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";

const TOKEN = "unattributed-admin-token-0123456789";
const NOT_OURS = "x402:pay_NeverIssuedByUs0000_abc_0000000000000000_00000000000000000000000000000000";

let chain: TestChain;
const build = testApps(afterAll);
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}): TestApp =>
  build({
    freeQueries: 1,
    adminToken: TOKEN,
    ...options,
    chain: chainReaderOf(chain),
  });
const admin = (t: TestApp, path: string) => t.call(path, { headers: { Authorization: `Bearer ${TOKEN}` } });

interface Listed {
  readonly signature: string;
  readonly payer: string;
  readonly units: number;
  readonly usdc: string;
  readonly at: number;
  readonly reason: string;
  readonly paymentId: string;
}
const listedIn = async (t: TestApp): Promise<ReadonlyArray<Listed>> => {
  const response = await admin(t, "/api/admin/insights");
  expect(response.status).toBe(200);
  return ((await response.json()) as { unattributed: ReadonlyArray<Listed> }).unattributed;
};

/** POST /api/payment of `signature` for 0.03 USDC: its refusal reason. */
const presented = async (t: TestApp, signature: string, from = "198.51.100.20") => {
  const response = await t.pay({ signature, amount: 0.03, token: "USDC" }, from);
  expect(response.status).toBe(400);
  return ((await response.json()) as { details: { reason?: string } } & { code: string }).code;
};

/** A payer of its own, so the entry's payer is known exactly. */
const sendNotOurs = async (units = 30_000n) => {
  const from = await chain.fundPayer();
  const signature = await chain.sendUsdc({ units, memo: NOT_OURS, from });
  return { signature, payer: from.address };
};

describe("unattributed payments on the memory store", () => {
  test("a transfer whose memo is not ours: refused, listed once, in the report and both exports", async () => {
    const t = onChain();
    const { signature, payer } = await sendNotOurs();
    const block = await chain.parsedTransaction(signature as never);
    // Presented twice (and from two addresses): one entry.
    expect(await presented(t, signature)).toBe("MEMO_RESERVED");
    expect(await presented(t, signature, "198.51.100.21")).toBe("MEMO_RESERVED");
    const listed = await listedIn(t);
    expect(listed).toEqual([
      {
        signature,
        payer,
        units: 30_000,
        usdc: "0.03",
        at: Number(block?.blockTime ?? 0) * 1000,
        reason: "memo-not-ours",
        paymentId: "",
      },
    ]);
    const json = (await (await admin(t, "/api/admin/export?format=json")).json()) as {
      unattributed: ReadonlyArray<Listed>;
    };
    expect(json.unattributed).toEqual(listed);
    const csv = await (await admin(t, "/api/admin/export")).text();
    const [header = "", ...rows] = csv.trim().split("\n");
    expect(header.split(",").slice(-5)).toEqual(["payer", "signature", "reason", "payment_id", "receipt"]);
    const row = rows.find((line) => line.startsWith("unattributed,"));
    expect(row).toContain(`,30000,0.03,`);
    expect(row?.endsWith(`,${payer},${signature},memo-not-ours,,`)).toBe(true);
  });

  test("an x402 memo of a request we sealed is not listed: its authorization header still pays it", async () => {
    const t = onChain();
    const request = await readPaymentRequest(await exhaustFreeQuestion(t, "198.51.100.22"));
    const signature = await chain.sendUsdc({ units: 30_000n, memo: paymentMemo(request.payment_id) });
    expect(await presented(t, signature)).toBe("MEMO_RESERVED");
    expect(await listedIn(t)).toEqual([]);
  });

  test("with PAYMENT_MEMO_REQUIRED, a transfer without our memo is listed", async () => {
    const t = onChain({ memoRequired: true });
    const from = await chain.fundPayer();
    const signature = await chain.sendUsdc({ units: 30_000n, from });
    expect(await presented(t, signature)).toBe("MEMO_REQUIRED");
    expect((await listedIn(t)).map((entry) => [entry.signature, entry.payer])).toEqual([
      [signature, from.address],
    ]);
  });
});

describe.skipIf(!redisServerAvailable())("unattributed payments on Redis", () => {
  const shared = useRedisServer();

  test("two instances sharing Redis list one transfer once, and both show it", async () => {
    const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
    const store = () => RedisStore.layer({ url: shared.redis.url, limits, keyPrefix: "unattributed:" });
    const [first, second] = [onChain({ store: store() }), onChain({ store: store() })];
    const { signature, payer } = await sendNotOurs(40_000n);
    const codes = await Promise.all([
      presented(first, signature),
      presented(second, signature, "198.51.100.23"),
    ]);
    expect(codes).toEqual(["MEMO_RESERVED", "MEMO_RESERVED"]);
    for (const t of [first, second]) {
      const listed = await listedIn(t);
      expect(listed.map((entry) => [entry.signature, entry.payer, entry.units, entry.reason])).toEqual([
        [signature, payer, 40_000, "memo-not-ours"],
      ]);
    }
  });
});
