/**
 * The paywall's x402 v2 with payment-identifier, on two example servers sharing one Redis:
 * the official `@x402/fetch` client, its payments named with `@x402/extensions`' helper, pays
 * one instance and loses the response (the connection drops); the agent resends the same
 * PAYMENT-SIGNATURE to the other instance and gets the content, charged once (the payer's
 * USDC, the service's USDC, the fee payer's SOL, exactly). The same id with another payload is
 * 409; with X402_PAYMENT_ID_REQUIRED a payload without an id is 400 and nothing moves.
 */
import { describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import { generatePaymentId, isPaymentIdentifierRequired } from "@x402/extensions/payment-identifier";
import { wrapFetchWithPayment } from "@x402/fetch";
import type { TestChain } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useExampleServer, useTwoExampleServers } from "../support/x402-example.ts";
import {
  namedClient,
  namedPaymentHeader,
  officialPaymentHeader,
  paymentRequiredOf,
  settlementOf,
} from "../support/x402-v2.ts";

/** What /premium-data costs: 0.10 USDC; the fee payer pays two signatures and 1 lamport of priority. */
const ONE_PAYMENT = { payer: -100_000n, service: 100_000n, feePayerSol: -10_001n };
const NOTHING = { payer: 0n, service: 0n, feePayerSol: 0n };

const balances = async (chain: TestChain, payer: KeyPairSigner) => ({
  payer: await chain.usdcBalance(payer.address),
  service: await chain.usdcBalance(chain.serviceWallet),
  feePayerSol: (await chain.rpc.getBalance(chain.localnet.feePayer.address).send()).value,
});
const moved = async (
  chain: TestChain,
  payer: KeyPairSigner,
  before: Awaited<ReturnType<typeof balances>>,
) => {
  const after = await balances(chain, payer);
  return {
    payer: after.payer - before.payer,
    service: after.service - before.service,
    feePayerSol: after.feePayerSol - before.feePayerSol,
  };
};
const wallet = (chain: TestChain, signer: KeyPairSigner) => ({ signer, rpcUrl: chain.url, mint: chain.mint });
const withPayment = (url: string, header: string) => fetch(url, { headers: { "PAYMENT-SIGNATURE": header } });

describe.skipIf(!redisServerAvailable())("the paywall on two instances sharing Redis", () => {
  const two = useTwoExampleServers({ v2: true });

  test("a response lost on one instance is got back from the other with the same payload, charged once", async () => {
    const { chain, first, second } = two;
    const payer = await chain.fundPayer();
    const before = await balances(chain, payer);
    let sent: string | undefined;
    // The transport drops the paid response after the server answered it.
    const dropping = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      const header = request.headers.get("PAYMENT-SIGNATURE");
      if (header === null) return response;
      sent = header;
      await response.arrayBuffer();
      throw new TypeError("connection reset");
    }) as typeof fetch;
    const client = wrapFetchWithPayment(dropping, namedClient(wallet(chain, payer), generatePaymentId()));
    await expect(client(`${first.url}/premium-data`)).rejects.toThrow("connection reset");
    if (sent === undefined) throw new Error("the client sent no payment");
    const resent = await withPayment(`${second.url}/premium-data`, sent);
    expect(resent.status).toBe(200);
    expect(resent.headers.get("Payment-Identifier-Replayed")).toBe("true");
    expect(settlementOf(resent)).toMatchObject({ success: true, payer: payer.address });
    expect(await resent.json()).toMatchObject({ data: expect.anything() });
    expect(await moved(chain, payer, before)).toEqual(ONE_PAYMENT);
  });

  test("the same id with another payload is 409, nothing moved", async () => {
    const { chain, first, second } = two;
    const payer = await chain.fundPayer();
    const id = generatePaymentId();
    const paid = await namedPaymentHeader(wallet(chain, payer), await fetch(`${first.url}/premium-data`), id);
    expect((await withPayment(`${first.url}/premium-data`, paid)).status).toBe(200);
    const before = await balances(chain, payer);
    const other = await namedPaymentHeader(
      wallet(chain, payer),
      await fetch(`${second.url}/premium-data`),
      id,
    );
    const conflict = await withPayment(`${second.url}/premium-data`, other);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ Code: "PAYMENT_ID_CONFLICT" });
    expect(await moved(chain, payer, before)).toEqual(NOTHING);
  });
});

describe("X402_PAYMENT_ID_REQUIRED on the paywall", () => {
  const context = useExampleServer({ v2: true, paymentIdRequired: true });

  test("the 402 says required; a payload without an id is 400 and moves nothing", async () => {
    const { chain, server } = context;
    const payer = await chain.fundPayer();
    const offer = await fetch(`${server.url}/premium-data`);
    expect(
      isPaymentIdentifierRequired(paymentRequiredOf(offer.clone()).extensions?.["payment-identifier"]),
    ).toBe(true);
    const before = await balances(chain, payer);
    const unnamed = await withPayment(
      `${server.url}/premium-data`,
      await officialPaymentHeader(wallet(chain, payer), offer),
    );
    expect(unnamed.status).toBe(400);
    expect(await unnamed.json()).toMatchObject({ Code: "PAYMENT_ID_REQUIRED" });
    expect(await moved(chain, payer, before)).toEqual(NOTHING);
  });
});
