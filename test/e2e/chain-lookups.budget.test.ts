/**
 * The chain lookup budget (core/payments/chain-lookup-budget.ts) against an attacker, counted at
 * the local chain's RPC: random signatures by fresh keys on one 402's payment_id, from hundreds
 * of addresses, through /api/chat; and random signatures on POST /api/payment from one client
 * and from many. On the memory store, and on two instances sharing one Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import { ChainSolana } from "../../adapters/chain-solana/index.ts";
import { encodeBase58 } from "../../core/base58.ts";
import {
  CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE,
  CHAIN_LOOKUPS_PER_PAYMENT,
} from "../../core/payments/chain-lookup-budget.ts";
import { buildAuthorization, readPaymentRequest } from "../../src/payments/client/payment-client.ts";
import { askChat, exhaustFreeQuestion } from "../support/chat-402.ts";
import { startTestChain, type TestChain } from "../support/localnet.ts";
import { awayFromMinuteEdge } from "../support/minute-window.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";

let chain: TestChain;
const build = testApps(afterAll);
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}): TestApp =>
  build({
    freeQueries: 1,
    ...options,
    chain: {
      // No miss cache: every admitted lookup reaches the RPC, so the counts below are the budget's.
      layer: ChainSolana.layer({ rpcUrl: chain.url, baseDelayMs: 20, missCacheMs: 0 }),
      usdcMint: chain.mint,
      wallet: chain.serviceWallet,
    },
  });

/** RPC calls a signature lookup makes (getTransaction, then getSignatureStatuses). */
const lookupCalls = () =>
  chain.localnet.calls("getTransaction") + chain.localnet.calls("getSignatureStatuses");
const randomSignature = () => encodeBase58(crypto.getRandomValues(new Uint8Array(64)));
const addressOf = (i: number) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/** `count` chat requests from `count` addresses, each with the 402's payment_id, a random tx and its own fresh key. */
const floodPaymentId = async (apps: ReadonlyArray<TestApp>, response: Response, count: number) => {
  const request = await readPaymentRequest(response);
  const statuses: number[] = [];
  for (let batch = 0; batch < count; batch += 50) {
    const replies = await Promise.all(
      Array.from({ length: Math.min(50, count - batch) }, async (_, j) => {
        const i = batch + j;
        const signer = await generateKeyPairSigner();
        const { header } = await buildAuthorization(
          request,
          { signer, network: "chain-devnet", rpcUrl: chain.url },
          randomSignature(),
        );
        const app = apps[i % apps.length] as TestApp;
        return askChat(app, addressOf(i), { "X-Payment-Authorization": header });
      }),
    );
    statuses.push(...replies.map((reply) => reply.status));
    await Promise.all(replies.map((reply) => reply.body?.cancel()));
  }
  return statuses;
};

/** `count` POST /api/payment of random signatures, from `from(i)`, alternating over `apps`. */
const payRandom = async (apps: ReadonlyArray<TestApp>, count: number, from: (i: number) => string) => {
  const replies: Response[] = [];
  for (let i = 0; i < count; i++) {
    const app = apps[i % apps.length] as TestApp;
    replies.push(await app.pay({ signature: randomSignature(), amount: 0.01, token: "USDC" }, from(i)));
  }
  return replies;
};

const scenarios = (apps: () => ReadonlyArray<TestApp>) => {
  test("300 chats from 300 addresses with guessed signatures on one 402's payment_id: at most 30 RPC calls", async () => {
    const [first] = apps();
    const offer = await exhaustFreeQuestion(first as TestApp, "198.51.100.77");
    const before = lookupCalls();
    const statuses = await floodPaymentId(apps(), offer, 300);
    const spent = lookupCalls() - before;
    // Three distinct signatures were looked up (two calls each: none is on chain), then no more.
    expect(spent).toBeLessThanOrEqual(30);
    expect(spent).toBe(CHAIN_LOOKUPS_PER_PAYMENT * 2);
    expect(statuses.every((status) => status >= 400 && status < 500)).toBe(true);
  }, 120_000);

  test("the payment_id's refusal says why: a new payment request, not a retry", async () => {
    const [first] = apps();
    const offer = await exhaustFreeQuestion(first as TestApp, "198.51.100.78");
    await floodPaymentId(apps(), offer.clone(), CHAIN_LOOKUPS_PER_PAYMENT);
    const before = lookupCalls();
    const request = await readPaymentRequest(offer);
    const signer = await generateKeyPairSigner();
    const { header } = await buildAuthorization(
      request,
      { signer, network: "chain-devnet", rpcUrl: chain.url },
      randomSignature(),
    );
    const refused = await askChat(first as TestApp, "198.51.100.79", { "X-Payment-Authorization": header });
    expect(await refused.json()).toMatchObject({ code: "PAYMENT_LOOKUPS_EXHAUSTED", retryable: false });
    expect(lookupCalls() - before).toBe(0);
  }, 60_000);

  test(`one client: ${CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE} lookups a minute on POST /api/payment, then 429 with no RPC call`, async () => {
    await awayFromMinuteEdge();
    const before = chain.localnet.calls("getTransaction");
    const replies = await payRandom(apps(), CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE + 5, () => "198.51.100.80");
    expect(replies.slice(0, CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE).map((reply) => reply.status)).toEqual(
      Array(CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE).fill(400),
    );
    const limited = replies.slice(CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE);
    expect(limited.map((reply) => reply.status)).toEqual(Array(5).fill(429));
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited[0]?.json()).toMatchObject({
      code: "TOO_MANY_UNKNOWN_TRANSACTIONS",
      retryable: true,
    });
    expect(chain.localnet.calls("getTransaction") - before).toBe(CHAIN_LOOKUPS_PER_CLIENT_PER_MINUTE);
  }, 60_000);
};

const GLOBAL = 12;
const globalScenario = (apps: () => ReadonlyArray<TestApp>) =>
  test(`everyone together: ${GLOBAL} lookups a minute, whatever the number of addresses`, async () => {
    await awayFromMinuteEdge();
    const before = chain.localnet.calls("getTransaction");
    const replies = await payRandom(apps(), 40, (i) => addressOf(1000 + i));
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(40 - GLOBAL);
    expect(chain.localnet.calls("getTransaction") - before).toBe(GLOBAL);
  }, 60_000);

const tightGlobal = { "chain-lookups": GLOBAL };

describe("chain lookups on the memory store", () => {
  let app: TestApp;
  let tight: TestApp;
  beforeAll(() => {
    app = onChain();
    tight = onChain({ ceilings: tightGlobal });
  });
  scenarios(() => [app]);
  globalScenario(() => [tight]);
});

describe.skipIf(!redisServerAvailable())("chain lookups on two instances sharing Redis", () => {
  const shared = useRedisServer();
  let apps: ReadonlyArray<TestApp> = [];
  let tight: ReadonlyArray<TestApp> = [];
  beforeAll(() => {
    apps = twoOnRedis(shared.redis.url, "lookups:", (store) => onChain({ store }));
    tight = twoOnRedis(shared.redis.url, "lookups-tight:", (store) =>
      onChain({ store, ceilings: tightGlobal }),
    );
  });
  scenarios(() => apps);
  globalScenario(() => tight);
});
