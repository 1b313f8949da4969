/**
 * A wallet's sessions and sign-ins have ceilings (core/sign-in/session-ceilings.ts), on the memory
 * store and on one Redis shared by two instances: the 11th sign-in of a wallet revokes its first
 * session (at most 10 live), the 31st sign-in in an hour is refused, and a challenge writes nothing
 * until a sign-in with it succeeds.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { generateKeyPairSigner } from "@solana/kit";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { MAX_SESSIONS_PER_WALLET, MAX_SIGN_INS_PER_WALLET } from "../../core/sign-in/session-ceilings.ts";
import { rawClient, redisServerAvailable } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { challengeOf, proofFor, signInWith } from "../support/sign-in-client.ts";
import { METRICS_TOKEN, type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";

const build = testApps(afterAll);

/** Each sign-in from its own client address: the per-client attempt limiter stays out of the way. */
let client = 0;
const nextClient = () => `198.18.${Math.floor(++client / 250)}.${(client % 250) + 1}`;

const signIn = async (t: TestApp, wallet: Awaited<ReturnType<typeof generateKeyPairSigner>>) => {
  const from = nextClient();
  return signInWith(t, await proofFor(wallet, await challengeOf(t, from)), from);
};

const ceilings = (
  pair: () => Promise<readonly [TestApp, TestApp]>,
  /** How many per-wallet sign-in counters the store holds for the pair last made. */
  counters: () => Promise<number>,
) => {
  test("the 11th sign-in of a wallet revokes its first session; the last 10 work", async () => {
    const [a, b] = await pair();
    const wallet = await generateKeyPairSigner();
    const tokens: string[] = [];
    for (let i = 0; i <= MAX_SESSIONS_PER_WALLET; i++) {
      const res = await signIn(i % 2 === 0 ? a : b, wallet);
      expect(res.status).toBe(200);
      tokens.push((await res.json()).session.token);
    }
    const statusWith = async (token: string) =>
      (await b.call("/api/status", { headers: { "X-Wallet-Session": token } }, nextClient())).status;
    const [first, ...rest] = tokens;
    const revoked = await a.call("/api/status", { headers: { "X-Wallet-Session": first! } }, nextClient());
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).code).toBe("SESSION_REVOKED");
    for (const token of rest) expect(await statusWith(token)).toBe(200);
  });

  test("a wallet signs in at most 30 times an hour; another wallet is not held back", async () => {
    const [a, b] = await pair();
    const wallet = await generateKeyPairSigner();
    for (let i = 0; i < MAX_SIGN_INS_PER_WALLET; i++)
      expect((await signIn(i % 2 === 0 ? a : b, wallet)).status).toBe(200);
    const refused = await signIn(b, wallet);
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe("TOO_MANY_SIGN_INS");
    expect((await signIn(a, await generateKeyPairSigner())).status).toBe(200);
  });

  test("a replayed (used) proof is refused before it is counted: replays cannot lock the wallet out", async () => {
    const [a, b] = await pair();
    const wallet = await generateKeyPairSigner();
    const from = nextClient();
    const proof = await proofFor(wallet, await challengeOf(a, from));
    expect((await signInWith(a, proof, from)).status).toBe(200);
    for (let i = 0; i <= MAX_SIGN_INS_PER_WALLET; i++) {
      const replay = nextClient();
      expect((await signInWith(i % 2 === 0 ? a : b, proof, replay)).status).not.toBe(200);
    }
    expect((await signIn(b, wallet)).status).toBe(200);
  });

  test("fresh wallets' first sign-ins write no counter: a stranger's new keypairs leave none behind", async () => {
    const [a, b] = await pair();
    for (let i = 0; i < 20; i++)
      expect((await signIn(i % 2 === 0 ? a : b, await generateKeyPairSigner())).status).toBe(200);
    expect(await counters()).toBe(0);
    const returning = await generateKeyPairSigner();
    expect((await signIn(a, returning)).status).toBe(200);
    expect((await signIn(b, returning)).status).toBe(200);
    expect(await counters()).toBe(1);
  });
};

describe("session ceilings on the memory store", () => {
  let last: TestApp | undefined;
  ceilings(
    async () => {
      last = build();
      return [last, last] as const;
    },
    async () => {
      const metrics = await last!.call("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      const line = /^bounded_structure_entries\{structure="sign_in_counts"\} (\d+)$/m.exec(
        await metrics.text(),
      );
      return Number(line?.[1]);
    },
  );
});

describe.skipIf(!redisServerAvailable())("session ceilings on one Redis shared by two instances", () => {
  const context = useRedisServer();
  let prefix = 0;
  const keyPrefix = () => `sign-in-ceilings-${prefix}:`;
  ceilings(
    async () => {
      ++prefix;
      const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
      const options = (): TestAppOptions => ({
        freeQueries: 1,
        store: RedisStore.layer({ url: context.redis.url, limits, keyPrefix: keyPrefix() }),
      });
      return [build(options()), build(options())] as const;
    },
    async () => {
      const raw = rawClient(context.redis.url);
      try {
        // The wallets' own counters (the minute's budget for all is the ceiling counter's).
        return (await raw.keys(`${keyPrefix()}signins:*`)).length;
      } finally {
        raw.disconnect();
      }
    },
  );
});
