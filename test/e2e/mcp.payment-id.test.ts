/**
 * A priced MCP tool paid with x402's payment-identifier, by the official MCP SDK client and the
 * official x402 client (the id added with `@x402/extensions`' helper), on two instances sharing a
 * real Redis: the result lost on one instance is got back from the other by resending the same
 * call, charged once (the payer's USDC, the service's USDC and the fee payer's SOL, exactly);
 * the same payload with other arguments is refused as a conflict; with X402_PAYMENT_ID_REQUIRED
 * a payload without an id is refused and moves nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import type { PaymentRequired } from "@x402/core/types";
import { generatePaymentId, isPaymentIdentifierRequired } from "@x402/extensions/payment-identifier";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { connectMcp, textOf } from "../support/mcp-client.ts";
import {
  type Balances,
  balancesOf,
  movedSince as moved,
  NOTHING,
  ONE_PAYMENT,
} from "../support/money-moved.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestAppOptions, testApps } from "../support/test-app.ts";
import { namedClient, officialClient, startChainWithFacilitator } from "../support/x402-v2.ts";

let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const servers: Array<ReturnType<typeof Bun.serve>> = [];
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(async () => {
  for (const server of servers) await server.stop(true);
  await chain?.stop();
});

const onChain = (options: TestAppOptions & { readonly required?: boolean } = {}) => {
  if (facilitator === undefined) throw new Error("the local chain's facilitator did not start");
  const { required = false, ...rest } = options;
  return build({
    freeQueries: 1,
    ...rest,
    facilitator: { ...facilitator, paymentIdRequired: required },
    chain: chainReaderOf(chain),
  });
};
const wallet = (signer: KeyPairSigner) => ({ signer, rpcUrl: chain.url, mint: chain.mint });
const balances = (payer: KeyPairSigner) => balancesOf(chain, payer.address);
const movedSince = (before: Balances, payer: KeyPairSigner) => moved(chain, payer.address, before);
const ask = (question: string, payment?: unknown) => ({
  name: "ask_docs",
  arguments: { question },
  ...(payment === undefined ? {} : { _meta: { "x402/payment": payment } }),
});

describe.skipIf(!redisServerAvailable())("ask_docs with a payment identifier, two instances on Redis", () => {
  const shared = useRedisServer();

  test("the result lost on one instance comes back from the other, charged once; other arguments conflict", async () => {
    const [firstApp, secondApp] = twoOnRedis(shared.redis.url, `mcp-pid-${crypto.randomUUID()}:`, (store) =>
      onChain({ store }),
    );
    const from = "198.51.100.91";
    const first = await connectMcp(firstApp, from, servers);
    const second = await connectMcp(secondApp, from, servers);
    expect((await first.callTool(ask("How do I write a file?"))).isError).toBeFalsy();
    const offered = await first.callTool(ask("How do I write a file?"));
    const required = offered.structuredContent as unknown as PaymentRequired;
    expect(isPaymentIdentifierRequired(required.extensions?.["payment-identifier"])).toBe(false);
    const payer = await chain.fundPayer();
    const payload = await namedClient(wallet(payer), generatePaymentId()).createPaymentPayload(required);
    const before = await balances(payer);
    const lost = await first.callTool(ask("How do I write a file?", payload));
    expect(lost.isError).toBeFalsy();
    const resent = await second.callTool(ask("How do I write a file?", payload));
    expect(resent).toEqual(lost);
    expect(await movedSince(before, payer)).toEqual(ONE_PAYMENT);
    const conflict = await second.callTool(ask("How do I read a file?", payload));
    expect(conflict.isError).toBe(true);
    expect(textOf(conflict)).toContain("PAYMENT_ID_CONFLICT");
    expect(await movedSince(before, payer)).toEqual(ONE_PAYMENT);
    await first.close();
    await second.close();
  });
});

describe("X402_PAYMENT_ID_REQUIRED on MCP", () => {
  test("the offer says required; a payload without an id is refused and moves nothing", async () => {
    const app = onChain({ required: true });
    const from = "198.51.100.92";
    const client = await connectMcp(app, from, servers);
    expect((await client.callTool(ask("How do I write a file?"))).isError).toBeFalsy();
    const required = (await client.callTool(ask("How do I write a file?")))
      .structuredContent as unknown as PaymentRequired;
    expect(isPaymentIdentifierRequired(required.extensions?.["payment-identifier"])).toBe(true);
    const payer = await chain.fundPayer();
    const before = await balances(payer);
    const unnamed = await officialClient(wallet(payer)).createPaymentPayload(required);
    const refused = await client.callTool(ask("How do I write a file?", unnamed));
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("PAYMENT_ID_REQUIRED");
    expect(await movedSince(before, payer)).toEqual(NOTHING);
    await client.close();
  });
});
