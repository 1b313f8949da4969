/**
 * x402 v2 settles exactly once: one payload raced across two example-server instances on one
 * real redis-server moves the money once and serves once; a settlement that fails after the
 * handler ran withholds the content (402, failed PAYMENT-RESPONSE, logged and counted) and the
 * same payload, sent again, settles that one transaction.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { type ExampleServer, startExampleServer, useTwoExampleServers } from "../support/x402-example.ts";
import { officialPaymentHeader, settlementOf } from "../support/x402-v2.ts";

const getPaid = (server: ExampleServer, path: string, header?: string) =>
  fetch(`${server.url}${path}`, header === undefined ? {} : { headers: { "PAYMENT-SIGNATURE": header } });

describe.skipIf(!redisServerAvailable())("x402 v2 on two instances sharing Redis", () => {
  const two = useTwoExampleServers({ v2: true });
  const wallet = (signer: KeyPairSigner) => ({ signer, rpcUrl: two.chain.url, mint: two.chain.mint });

  test("one payload raced across both instances: one settlement, one paid response", async () => {
    for (let round = 0; round < 3; round++) {
      const payer = await two.chain.fundPayer();
      const header = await officialPaymentHeader(
        wallet(payer),
        await getPaid(two.first, "/tiered-data/basic"),
      );
      const before = await two.chain.usdcBalance(two.chain.serviceWallet);
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          getPaid(i % 2 === 0 ? two.first : two.second, "/tiered-data/basic", header),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 403)).toHaveLength(11);
      const paid = responses.find((response) => response.status === 200);
      expect(settlementOf(paid as Response)?.success).toBe(true);
      expect((await two.chain.usdcBalance(two.chain.serviceWallet)) - before).toBe(50_000n);
    }
  });
});

describe("a settlement that fails after the handler ran", () => {
  let chain: TestChain;
  let server: ExampleServer;
  beforeAll(async () => {
    chain = await startTestChain();
    server = await startExampleServer(chain, { v2: true });
  });
  afterAll(async () => {
    await server?.stop();
    await chain?.stop();
  });

  test("withholds the content, logs it, and the same payload settles once when sent again", async () => {
    const payer = await chain.fundPayer();
    const wallet = { signer: payer, rpcUrl: chain.url, mint: chain.mint };
    const header = await officialPaymentHeader(wallet, await getPaid(server, "/premium-data"));
    const before = await chain.usdcBalance(chain.serviceWallet);
    chain.localnet.setFaults({ sendTransaction: "http-500", getSignatureStatuses: "http-500" });
    const failed = await getPaid(server, "/premium-data", header);
    chain.localnet.setFaults({});
    expect(failed.status).toBe(402);
    const body = (await failed.json()) as { data?: string; Details: { reason: string } };
    expect(body.data).toBeUndefined();
    expect(body.Details.reason).toBe("exact-settlement-failed");
    expect(settlementOf(failed)).toMatchObject({ success: false, errorReason: "exact-settlement-failed" });
    expect(server.lines.some((line) => line.msg?.toString().includes("settlement failed"))).toBe(true);
    expect(await chain.usdcBalance(chain.serviceWallet)).toBe(before);

    const again = await getPaid(server, "/premium-data", header);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: string }).data).toContain("Premium data");
    expect((await chain.usdcBalance(chain.serviceWallet)) - before).toBe(100_000n);
    expect((await getPaid(server, "/premium-data", header)).status).toBe(403);
    expect((await chain.usdcBalance(chain.serviceWallet)) - before).toBe(100_000n);
  });
});
