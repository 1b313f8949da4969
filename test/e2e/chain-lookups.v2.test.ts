/**
 * The chain lookup budget on x402 v2 (PAYMENT-SIGNATURE): each payload from a fresh key costs
 * the operator a simulateTransaction, so it takes a lookup from the same budget, and one 402's
 * payment_id accepts only CHAIN_LOOKUPS_PER_PAYMENT distinct transactions. Counted at the local
 * chain's RPC, on the memory store and on two instances sharing Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import { CHAIN_LOOKUPS_PER_PAYMENT } from "../../core/payments/chain-lookup-budget.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { exhaustFreeQuestion } from "../support/chat-402.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import {
  exactHeader,
  memoInstruction,
  paymentRequiredOf,
  startChainWithFacilitator,
  transferFor,
} from "../support/x402-v2.ts";

let chain: TestChain;
let facilitator: ExactFacilitator;
const build = testApps(afterAll);
beforeAll(async () => {
  const started = await startChainWithFacilitator();
  chain = started.chain;
  facilitator = started.facilitator as ExactFacilitator;
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}): TestApp =>
  build({
    freeQueries: 1,
    ...options,
    facilitator,
    chain: chainReaderOf(chain),
  });

const PAYLOADS = 60;

/** `PAYLOADS` chats from as many addresses, each paying one 402's requirements with its own fresh (empty) wallet. */
const flood = async (apps: ReadonlyArray<TestApp>, offer: Response) => {
  const requirements = paymentRequiredOf(offer).accepts[0];
  if (requirements === undefined) throw new Error("the 402 offers no x402 v2 requirements");
  const memo = memoInstruction((requirements.extra as { memo: string }).memo);
  const headers = await Promise.all(
    Array.from({ length: PAYLOADS }, async () => {
      const payer = await generateKeyPairSigner();
      return exactHeader(requirements, [await transferFor({ requirements, payer }), memo], {
        rpcUrl: chain.url,
      });
    }),
  );
  const before = chain.localnet.calls("simulateTransaction");
  const replies = await Promise.all(
    headers.map((header, i) =>
      (apps[i % apps.length] as TestApp).call(
        "/api/chat",
        {
          method: "POST",
          headers: { "Content-Type": "application/json", "PAYMENT-SIGNATURE": header },
          body: JSON.stringify({ message: "How do I write a file?" }),
        },
        `198.18.50.${i + 1}`,
      ),
    ),
  );
  const codes = await Promise.all(
    replies.map(async (reply) => ((await reply.json()) as { code?: string }).code),
  );
  return { simulations: chain.localnet.calls("simulateTransaction") - before, codes };
};

const scenario = (apps: () => ReadonlyArray<TestApp>) =>
  test(`${PAYLOADS} payloads by fresh keys on one payment_id: at most ${CHAIN_LOOKUPS_PER_PAYMENT} simulations`, async () => {
    const [first] = apps();
    const { simulations, codes } = await flood(
      apps(),
      await exhaustFreeQuestion(first as TestApp, "198.51.100.90"),
    );
    expect(simulations).toBeLessThanOrEqual(CHAIN_LOOKUPS_PER_PAYMENT);
    expect(codes.filter((code) => code === "PAYMENT_LOOKUPS_EXHAUSTED").length).toBeGreaterThanOrEqual(
      PAYLOADS - CHAIN_LOOKUPS_PER_PAYMENT,
    );
  }, 120_000);

describe("x402 v2 payloads on the memory store", () => {
  let app: TestApp;
  beforeAll(() => {
    app = onChain();
  });
  scenario(() => [app]);
});

describe.skipIf(!redisServerAvailable())("x402 v2 payloads on two instances sharing Redis", () => {
  const shared = useRedisServer();
  let apps: ReadonlyArray<TestApp> = [];
  beforeAll(() => {
    apps = twoOnRedis(shared.redis.url, "lookups-v2:", (store) => onChain({ store }));
  });
  scenario(() => apps);
});
