/**
 * Paid questions follow the payer, with real signed USDC transfers on the local chain,
 * on the memory store and on one real Redis shared by two instances:
 *   - paid from X-Forwarded-For A (TRUST_PROXY), asked from B in the same browser (its session):
 *     served from the wallet's credits, B's free question untouched;
 *   - a second device signs in with the same wallet: the same balance, spends seen by both;
 *   - 120 questions at once (on one instance, and across two) against 100 credits: exactly 100 answered;
 *   - an x402 v2 client that paid before signs in (SIGN-IN-WITH-X) and is answered without paying;
 *   - a neighbour on the payer's address without a session spends only what was bought from
 *     that address, never what the wallet bought on another network.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { KeyPairSigner } from "@solana/kit";
import { wrapFetchWithSIWx } from "@x402/extensions/sign-in-with-x";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { challengeOf, proofFor, signInWith } from "../support/sign-in-client.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import { officialFetch, startChainWithFacilitator } from "../support/x402-v2.ts";

const ORIGIN = "https://docs-chat.example";
/** A kit signer as @x402/extensions types one (the same signMessages, typed more loosely there). */
const siwxSigner = (signer: KeyPairSigner) => signer as unknown as Parameters<typeof wrapFetchWithSIWx>[1];
const PROXY = "10.0.0.1";
let chain: TestChain;
let facilitator: ExactFacilitator | undefined;
const build = testApps(afterAll);
beforeAll(async () => {
  ({ chain, facilitator } = await startChainWithFacilitator());
});
afterAll(() => chain?.stop());

const options = (store?: TestAppOptions["store"]): TestAppOptions => ({
  freeQueries: 1,
  trustProxy: { kind: "hops", hops: 1 },
  surface: { publicOrigin: ORIGIN },
  ...(store === undefined ? {} : { store }),
  ...(facilitator === undefined ? {} : { facilitator }),
  chain: chainReaderOf(chain),
});

/** A request from client `ip` behind the proxy, with the wallet session `token` if given. */
const from = (ip: string, token?: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: {
    "X-Forwarded-For": ip,
    ...(token === undefined ? {} : { "X-Wallet-Session": token }),
    ...(init.headers as Record<string, string> | undefined),
  },
});
const ask = (t: TestApp, ip: string, token?: string) =>
  t.call(
    "/api/chat",
    from(ip, token, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "How do I write a file?" }),
    }),
    PROXY,
  );
const status = async (t: TestApp, ip: string, token?: string) =>
  (await t.call("/api/status", from(ip, token), PROXY)).json();

/**
 * Pays `units` from `payer` with the memo issued to client `ip` (sending the wallet's session
 * `token` when it has one, as the widget does), then claims it from there: the session.
 */
const payFrom = async (t: TestApp, ip: string, payer: KeyPairSigner, units: bigint, token?: string) => {
  const info = await (await t.call("/api/payment/info", from(ip, token), PROXY)).json();
  const signature = await chain.sendUsdc({ units, memo: info.memo, from: payer });
  const amount = Number(units) / 1_000_000;
  const res = await t.call(
    "/api/payment",
    from(ip, token, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ signature, amount, token: "USDC" }),
    }),
    PROXY,
  );
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.wallet).toBe(payer.address);
  return body.session.token as string;
};

const journeys = (pair: () => readonly [TestApp, TestApp]) => {
  test("paid on network A, asked on network B in the same browser: the wallet pays, B's free question stays", async () => {
    const [t] = pair();
    const payer = await chain.fundPayer();
    const token = await payFrom(t, "192.0.2.1", payer, 10_000n);
    const answered = await ask(t, "198.51.100.1", token);
    expect(answered.status).toBe(200);
    expect((await answered.json()).rateLimit).toMatchObject({ free: 1, paid: 9 });
    // B without the session: its free question is still there, the wallet's credits are not its.
    expect(await status(t, "198.51.100.1")).toMatchObject({ free: 1, paid: 0, remaining: 1 });
    expect(await status(t, "198.51.100.1", token)).toMatchObject({ wallet: payer.address, free: 1, paid: 9 });
  });

  test("a neighbour on the payer's address without a session spends only what was bought from that address", async () => {
    const [a, b] = pair();
    const payer = await chain.fundPayer();
    const token = await payFrom(a, "192.0.2.5", payer, 10_000n);
    // 0.01 more from another network, with the session the first payment returned.
    await payFrom(b, "198.51.100.5", payer, 10_000n, token);
    expect((await status(a, "203.0.113.5", token)).paid).toBe(20);
    // Anyone on 192.0.2.5 without the session: the 10 bought from there, then the free question.
    const answers: number[] = [];
    for (let i = 0; i < 25; i++) {
      const code = (await ask(i % 2 === 0 ? a : b, "192.0.2.5")).status;
      answers.push(code);
      if (code !== 200) break;
    }
    expect(answers.filter((code) => code === 200)).toHaveLength(11);
    expect(answers.at(-1)).toBe(402);
    // The 10 bought on the other network stay the session holder's (and that network's).
    expect(await status(b, "203.0.113.5", token)).toMatchObject({ paid: 10 });
    expect(await status(a, "198.51.100.5")).toMatchObject({ paid: 10 });
    expect(await status(a, "192.0.2.5")).toMatchObject({ free: 0, paid: 0, remaining: 0 });
  });

  test("a second device signs in with the same wallet: the same balance, and each sees the other's spends", async () => {
    const [a, b] = pair();
    const payer = await chain.fundPayer();
    const first = await payFrom(a, "192.0.2.2", payer, 20_000n);
    const signedIn = await signInWith(b, await proofFor(payer, await challengeOf(b, PROXY)), PROXY);
    expect(signedIn.status).toBe(200);
    const second = (await signedIn.json()).session.token as string;
    expect((await status(b, "203.0.113.50", second)).paid).toBe(20);
    expect((await ask(b, "203.0.113.50", second)).status).toBe(200);
    expect((await ask(b, "203.0.113.50", second)).status).toBe(200);
    expect((await status(a, "192.0.2.99", first)).paid).toBe(18);
    expect((await ask(a, "192.0.2.99", first)).status).toBe(200);
    expect((await status(b, "203.0.113.50", second)).paid).toBe(17);
  });
};

/** 120 questions at once against a wallet's 100 credits, spread over the pair's two instances. */
const raceAgainstCredits = (pair: () => readonly [TestApp, TestApp], where: string) =>
  test(`120 questions at once ${where} against 100 credits: exactly 100 paid, plus the one free`, async () => {
    const [a, b] = pair();
    const payer = await chain.fundPayer();
    const token = await payFrom(a, "192.0.2.4", payer, 100_000n);
    const statuses = await Promise.all(
      Array.from({ length: 120 }, (_, i) => ask(i % 2 === 0 ? a : b, "198.51.100.4", token)),
    ).then((responses) => responses.map((response) => response.status));
    // The wallet's 100 credits and the network's one free question: 101 answers, never more.
    expect(statuses.filter((code) => code === 200)).toHaveLength(101);
    expect(statuses.filter((code) => code === 402)).toHaveLength(19);
    expect(await status(b, "198.51.100.4", token)).toMatchObject({ free: 0, paid: 0, remaining: 0 });
  }, 60_000);

describe("on the memory store", () => {
  const oneInstance = () => {
    const t = build(options());
    return [t, t] as const;
  };
  journeys(oneInstance);
  // All 120 at once on one instance: above the edge's limits per client (64 in flight, 100 a
  // second), which would refuse some before they reach the wallet's credits.
  raceAgainstCredits(() => {
    const base = options();
    const t = build({
      ...base,
      protectionRps: 200,
      ceilings: { ...base.ceilings, "in-flight-per-client": 128 },
    });
    return [t, t] as const;
  }, "on one instance");

  test("an x402 v2 client that paid before signs in (SIGN-IN-WITH-X) and is answered without paying", async () => {
    const t = build(options());
    const payer = await chain.fundPayer();
    const viaApp = (ip: string) =>
      (async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        request.headers.set("X-Forwarded-For", ip);
        return t.app.request(new URL(request.url).pathname, request, { remoteAddress: PROXY });
      }) as typeof fetch;
    const question = {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "How do I write a file?" }),
    };
    // Buys 10 on network A with the official x402 client (its free question first).
    expect((await ask(t, "192.0.2.3")).status).toBe(200);
    const paying = officialFetch({ signer: payer, rpcUrl: chain.url, mint: chain.mint }, viaApp("192.0.2.3"));
    expect((await paying(`${ORIGIN}/api/chat`, question)).status).toBe(200);
    // On network C, its free question used, it signs in instead of paying.
    expect((await ask(t, "198.51.100.3")).status).toBe(200);
    expect((await ask(t, "198.51.100.3")).status).toBe(402);
    const before = await chain.usdcBalance(chain.serviceWallet);
    const signingIn = wrapFetchWithSIWx(viaApp("198.51.100.3"), siwxSigner(payer));
    const answered = await signingIn(`${ORIGIN}/api/chat`, question);
    expect(answered.status).toBe(200);
    expect((await answered.json()).rateLimit).toMatchObject({ free: 0, paid: 8 });
    expect(answered.headers.get("PAYMENT-RESPONSE")).toBeNull();
    expect(await chain.usdcBalance(chain.serviceWallet)).toBe(before);
    // A wallet that never paid gets the 402 again after signing in.
    const stranger = await chain.fundPayer();
    const refused = await wrapFetchWithSIWx(viaApp("198.51.100.3"), siwxSigner(stranger))(
      `${ORIGIN}/api/chat`,
      question,
    );
    expect(refused.status).toBe(402);
  });
});

describe.skipIf(!redisServerAvailable())("on one Redis shared by two instances", () => {
  const context = useRedisServer();
  let prefix = 0;
  const twoInstances = () => {
    const keyPrefix = `wallet-credits-${++prefix}:`;
    const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
    const store = () => RedisStore.layer({ url: context.redis.url, limits, keyPrefix });
    return [build(options(store())), build(options(store()))] as const;
  };
  journeys(twoInstances);

  raceAgainstCredits(twoInstances, "across two instances");
});
