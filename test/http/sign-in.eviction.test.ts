/**
 * Strangers' sessions are capped globally (core/sign-in/session-ceilings.ts), on the memory store
 * and on one Redis shared by two instances, with the cap set through MAX_CREDITLESS_SESSIONS:
 * past the cap the oldest session of a wallet without credits is deleted (it reads unknown), a
 * wallet holding credits keeps its session through a flood of fresh wallets, and a session closed
 * by the per-wallet cap keeps its record a day, not its 30 days. The sign-ins of wallets without
 * credits share one budget a minute (CREDITLESS_SIGN_INS_PER_MINUTE), which a paying wallet skips.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import * as Effect from "effect/Effect";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { keyLayout } from "../../adapters/store-redis/keys.ts";
import type { RedisTarget } from "../../core/config/config-redis.ts";
import { walletAccount } from "../../core/payments/wallet-credits.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { CLOSED_SESSION_MS, MAX_SESSIONS_PER_WALLET } from "../../core/sign-in/session-ceilings.ts";
import { hashSessionToken } from "../../src/sign-in/session-token.ts";
import { awayFromMinuteEdge } from "../support/minute-window.ts";
import { clusterForSuite } from "../support/redis-cluster.ts";
import { rawClient, redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { challengeOf, proofFor, signInWith } from "../support/sign-in-client.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";

const build = testApps(afterAll);
const CAP = 3;

/** Each sign-in from its own client address: the per-client attempt limiter stays out of the way. */
let client = 0;
const nextClient = () => `198.19.${Math.floor(++client / 250)}.${(client % 250) + 1}`;

type Wallet = Awaited<ReturnType<typeof generateKeyPairSigner>>;

const signIn = async (t: TestApp, wallet: Wallet): Promise<string> => {
  const from = nextClient();
  const res = await signInWith(t, await proofFor(wallet, await challengeOf(t, from)), from);
  expect(res.status).toBe(200);
  return (await res.json()).session.token;
};

const statusWith = async (t: TestApp, token: string) => {
  const res = await t.call("/api/status", { headers: { "X-Wallet-Session": token } }, nextClient());
  return res.status === 200 ? "ok" : ((await res.json()).code as string);
};

/** Credits the wallet as a confirmed payment does (the store's claim of a signature). */
let signatures = 0;
const credit = (t: TestApp, wallet: Wallet) =>
  t.runtime.runPromise(
    Effect.flatMap(PaymentStore, (store) =>
      store.claim(`eviction-sig-${++signatures}`, walletAccount(wallet.address), 10, Date.now()),
    ),
  );

const lookup = (t: TestApp, token: string, at: number) =>
  t.runtime.runPromise(
    Effect.gen(function* () {
      const sessions = yield* WalletSessions;
      return (yield* sessions.find(yield* Effect.promise(() => hashSessionToken(token)), at)).kind;
    }),
  );

const eviction = (
  pair: () => Promise<readonly [TestApp, TestApp]>,
  ttlOf?: (token: string) => Promise<number>,
) => {
  test("past the cap the oldest creditless session reads unknown; the newest work", async () => {
    const [a, b] = await pair();
    const tokens: string[] = [];
    for (let i = 0; i <= CAP; i++)
      tokens.push(await signIn(i % 2 === 0 ? a : b, await generateKeyPairSigner()));
    const [oldest, ...rest] = tokens;
    expect(await statusWith(b, oldest!)).toBe("SESSION_UNKNOWN");
    for (const token of rest) expect(await statusWith(a, token)).toBe("ok");
  });

  test("a wallet holding credits keeps its session through a flood of creditless sign-ins", async () => {
    const [a, b] = await pair();
    // One paid before signing in (its session is never evictable), one after (kept when met in the order).
    const paidFirst = await generateKeyPairSigner();
    await credit(a, paidFirst);
    const paying = await signIn(a, paidFirst);
    const paidLater = await generateKeyPairSigner();
    const later = await signIn(b, paidLater);
    await credit(b, paidLater);
    const flood: string[] = [];
    for (let i = 0; i < 3 * CAP; i++)
      flood.push(await signIn(i % 2 === 0 ? a : b, await generateKeyPairSigner()));
    expect(await statusWith(b, paying)).toBe("ok");
    expect(await statusWith(a, later)).toBe("ok");
    for (const token of flood.slice(0, 2 * CAP)) expect(await statusWith(a, token)).toBe("SESSION_UNKNOWN");
    for (const token of flood.slice(2 * CAP)) expect(await statusWith(b, token)).toBe("ok");
  });

  test("a session closed by the per-wallet cap keeps its record a day, not 30", async () => {
    const [a, b] = await pair();
    // A paying wallet: its 10 live sessions stay whatever the (small) cap.
    const wallet = await generateKeyPairSigner();
    await credit(a, wallet);
    const tokens: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_WALLET; i++) tokens.push(await signIn(i % 2 === 0 ? a : b, wallet));
    const closedFrom = Date.now();
    tokens.push(await signIn(b, wallet));
    const closedBy = Date.now();
    const first = tokens[0]!;
    expect(await statusWith(a, first)).toBe("SESSION_REVOKED");
    expect(await lookup(a, first, closedFrom + CLOSED_SESSION_MS - 1)).toBe("revoked");
    expect(await lookup(b, first, closedBy + CLOSED_SESSION_MS)).toBe("unknown");
    // The newest lasts its 30 days.
    expect(await lookup(a, tokens.at(-1)!, closedBy + CLOSED_SESSION_MS)).toBe("active");
    if (ttlOf !== undefined) {
      const ttl = await ttlOf(first);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(CLOSED_SESSION_MS);
    }
  });
};

const BUDGET = 5;
const withCap: TestAppOptions = { ceilings: { "creditless-sessions": CAP } };
const withBudget: TestAppOptions = {
  ceilings: { "creditless-sessions": CAP, "creditless-sign-ins": BUDGET },
};

const signInStatus = async (t: TestApp, wallet: Wallet) => {
  const from = nextClient();
  return (await signInWith(t, await proofFor(wallet, await challengeOf(t, from)), from)).status;
};

/**
 * Two instances on one Redis (at `url`, read when a pair is made), each pair under a key prefix
 * of its own; `keyPrefix()` is the latest pair's.
 */
const pairsOn = (url: () => string | RedisTarget) => {
  let prefix = 0;
  let keyPrefix = "";
  const pair = async (ceilings: TestAppOptions = withCap) => {
    keyPrefix = `sign-in-eviction-${++prefix}:`;
    const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
    const options = (): TestAppOptions => ({
      ...ceilings,
      freeQueries: 1,
      store: RedisStore.layer({ url: url(), limits, keyPrefix }),
    });
    return [build(options()), build(options())] as const;
  };
  return { pair, keyPrefix: () => keyPrefix };
};

const creditlessBudget = (pair: () => Promise<readonly [TestApp, TestApp]>) =>
  test("the sign-ins of wallets without credits share one budget a minute; a paying wallet still signs in", async () => {
    // The budget is per UTC minute: start well inside one, so the minute cannot turn mid-test.
    await awayFromMinuteEdge(10_000);
    const [a, b] = await pair();
    const paying = await generateKeyPairSigner();
    await credit(a, paying);
    for (let i = 0; i < BUDGET; i++)
      expect(await signInStatus(i % 2 === 0 ? a : b, await generateKeyPairSigner())).toBe(200);
    const refused = await signInStatus(b, await generateKeyPairSigner());
    expect(refused).toBe(429);
    expect(await signInStatus(a, paying)).toBe(200);
    expect(await signInStatus(b, paying)).toBe(200);
  }, 90_000);

describe("the session eviction order on the memory store", () => {
  eviction(async () => {
    const t = build(withCap);
    return [t, t] as const;
  });
  creditlessBudget(async () => {
    const t = build(withBudget);
    return [t, t] as const;
  });

  test("/metrics: wallet sessions stay within the cap plus the paying wallets' sessions", async () => {
    const t = build(withCap);
    const paying = await generateKeyPairSigner();
    await credit(t, paying);
    await signIn(t, paying);
    for (let i = 0; i < 4 * CAP; i++) await signIn(t, await generateKeyPairSigner());
    const text = await t.metricsText();
    const gauge = (line: string) => Number(new RegExp(`^${line} (\\d+)$`, "m").exec(text)?.[1]);
    expect(gauge('bounded_structure_entries\\{structure="wallet_sessions"\\}')).toBe(CAP + 1);
    expect(gauge('bounded_structure_entries\\{structure="evictable_sessions"\\}')).toBe(CAP);
    expect(gauge('bounded_structure_cap\\{structure="evictable_sessions"\\}')).toBe(CAP);
  });
});

describe.skipIf(!redisServerAvailable())(
  "the session eviction order on one Redis shared by two instances",
  () => {
    const context = useRedisServer();
    const { pair, keyPrefix } = pairsOn(() => context.redis.url);
    creditlessBudget(() => pair(withBudget));
    eviction(pair, async (token) => {
      const redis = rawClient(context.redis.url);
      try {
        return await redis.pttl(`${keyPrefix()}session:${await hashSessionToken(token)}`);
      } finally {
        redis.disconnect();
      }
    });
  },
);

describe.skipIf(!redisServerAvailable())(
  "the session eviction order on a 3-primary Redis Cluster shared by two instances",
  () => {
    const cluster = clusterForSuite();
    beforeAll(cluster.start, 60_000);
    afterAll(cluster.stop);
    const { pair, keyPrefix } = pairsOn(() => cluster.target());
    creditlessBudget(() => pair(withBudget));
    // A session's key carries the service's tag on a cluster (keys.ts); its node is whichever holds that slot.
    eviction(pair, async (token) => {
      const key = keyLayout(keyPrefix(), keyPrefix(), true).session(await hashSessionToken(token));
      for (const server of cluster.setup().servers) {
        const redis = rawClient(server.url);
        try {
          const ttl = await redis.pttl(key).catch(() => -2);
          if (ttl !== -2) return ttl;
        } finally {
          redis.disconnect();
        }
      }
      return -2;
    });
  },
);
