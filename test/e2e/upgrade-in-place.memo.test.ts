/**
 * Memo references were random and stored (`ref:id:<identity>` and `ref:of:<reference>`, 90 days);
 * now they are sealed and nothing is stored. A deployment upgraded in place, its Redis written
 * key by key as the old code wrote it, hands each client its sealed reference, still credits a
 * real transfer on the local chain that carries the reference the client was given before (to
 * the paying wallet, as a transfer made for the client), refuses that memo from any other client,
 * and never writes or refreshes the old keys. The sealed reference is the same after a restart.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { hmacSeal } from "../../adapters/shared/hmac-seal.ts";
import { memoReference } from "../../core/payments/memo-reference.ts";
import { chainEnv, startTestChain } from "../support/localnet.ts";
import { describeWithRedis, rawClient } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { startFromEnv } from "../support/started-service.ts";

const CLIENT = "198.51.100.202";
const OTHER = "198.51.100.203";
const REFERENCE = "Rk3nTz8Qw2pLx9Vb";
const DAY = 86_400_000;

describeWithRedis("memo references after an in-place upgrade", () => {
  const server = useRedisServer();
  let chain: Awaited<ReturnType<typeof startTestChain>>;
  let raw: Redis;
  const index = join(mkdtempSync(join(tmpdir(), "upgrade-memo-")), "index.bin");

  /** The service started the real way on this Redis and chain, and its app. */
  const start = () =>
    startFromEnv({
      ...chainEnv(chain),
      REDIS_URL: `${server.redis.url}/8`,
      RATE_LIMIT_FREE_QUERIES: "0",
      INDEX_PATH: index,
    });
  let running: Awaited<ReturnType<typeof start>> | undefined;
  const call = (path: string, from: string, init: RequestInit = {}) =>
    (running as NonNullable<typeof running>).app.request(path, init, { remoteAddress: from });
  const pay = async (signature: string, from: string) => {
    const res = await call("/api/payment", from, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ signature, amount: 0.01, token: "USDC" }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const memoOf = async (from: string) =>
    ((await (await call("/api/payment/info", from)).json()) as { memo: string }).memo;
  const sealed = async (identity: string) => {
    const key = await raw.get("docs-chat:seal-key");
    return `docschat:${memoReference(hmacSeal(key ?? "").mac, "docschat:", identity)}`;
  };

  beforeAll(async () => {
    chain = await startTestChain();
    raw = rawClient(`${server.redis.url}/8`);
    await raw.flushdb();
    // As the old store wrote them (its reference script): both keys, 90 days (here a day).
    await raw.set(`docs-chat:ref:id:${CLIENT}`, REFERENCE, "PX", DAY);
    await raw.set(`docs-chat:ref:of:${REFERENCE}`, CLIENT, "PX", DAY);
    running = await start();
  });
  afterAll(async () => {
    await running?.service.stop();
    raw?.disconnect();
    await chain?.stop();
  });

  test("the payment details hand out the sealed reference, not the stored one", async () => {
    const memo = await memoOf(CLIENT);
    expect(memo).toBe(await sealed(CLIENT));
    expect(memo).not.toBe(`docschat:${REFERENCE}`);
    expect(await memoOf(OTHER)).toBe(await sealed(OTHER));
  });

  test("a transfer with the reference given before the upgrade is credited to the wallet that paid", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n, memo: `docschat:${REFERENCE}` });
    const paid = await pay(signature, CLIENT);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ success: true, queriesGranted: 10, wallet: chain.payer.address });
    expect(await raw.hget(`docs-chat:quota:wallet:${chain.payer.address}`, "credits")).toBe("10");
  });

  test("from another client, that memo is another client's reference (MEMO_MISMATCH)", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n, memo: `docschat:${REFERENCE}` });
    const refused = await pay(signature, OTHER);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("MEMO_MISMATCH");
    // The sealed reference of another client is refused alike.
    const theirs = await chain.sendUsdc({ units: 10_000n, memo: await sealed(CLIENT) });
    expect((await pay(theirs, OTHER)).body.code).toBe("MEMO_MISMATCH");
  });

  test("a transfer with the sealed reference is credited; the old keys were never written again", async () => {
    const signature = await chain.sendUsdc({ units: 10_000n, memo: await sealed(OTHER) });
    expect((await pay(signature, OTHER)).body).toMatchObject({
      queriesGranted: 10,
      wallet: chain.payer.address,
    });
    expect(await raw.hget(`docs-chat:quota:wallet:${chain.payer.address}`, "credits")).toBe("20");
    expect((await raw.keys("docs-chat:ref:*")).sort()).toEqual([
      `docs-chat:ref:id:${CLIENT}`,
      `docs-chat:ref:of:${REFERENCE}`,
    ]);
    // Their own expiry, as the old code set it: no refresh to 90 days.
    expect(await raw.pttl(`docs-chat:ref:id:${CLIENT}`)).toBeLessThanOrEqual(DAY);
  });

  test("after a restart the sealed reference is the same (the seal key is kept in Redis)", async () => {
    const before = await memoOf(CLIENT);
    await running?.service.stop();
    running = await start();
    expect(await memoOf(CLIENT)).toBe(before);
  });
});
