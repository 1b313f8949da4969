/**
 * A single-site deployment upgrades in place to the one site model: its state, written as the
 * single-site service wrote it (raw Redis keys under `docs-chat:`, not through today's store),
 * is read by the service started the real way (src/runtime/service-layers.ts, createApp) at the
 * same paths: a client's paid credits, a wallet session with the wallet's credits, the memo's
 * form (`docschat:<reference>`; the reference is sealed now, and one given before is still
 * credited: upgrade-in-place.memo.test.ts), and the insights.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StartedService } from "../../src/runtime/service-layers.ts";
import { newSessionToken, SESSION_HEADER } from "../../src/sign-in/session-token.ts";
import { USDC_MINT, WALLET } from "../support/parsed-tx.ts";
import { describeWithRedis, rawClient } from "../support/redis-server.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { startFromEnv } from "../support/started-service.ts";

const CLIENT = "198.51.100.201";
const PAYER = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
const ADMIN = "upgrade-admin-token-0123456789";
const DAY = 86_400_000;

describeWithRedis("an existing single-site deployment, upgraded in place", () => {
  const server = useRedisServer();
  let service: StartedService | undefined;
  let app: Awaited<ReturnType<typeof startFromEnv>>["app"];
  const token = newSessionToken();
  const now = Date.now();
  const today = Math.floor(now / DAY);

  beforeAll(async () => {
    const url = `${server.redis.url}/7`;
    // The single-site layout, written key by key (adapters/store-redis/keys.ts as it was).
    const raw = rawClient(url);
    await raw.flushdb();
    await raw.hset(`docs-chat:quota:${CLIENT}`, { day: today, free: 0, spent: 0, credits: 40 });
    await raw.hset(`docs-chat:quota:wallet:${PAYER}`, { day: today, free: 0, spent: 0, credits: 25 });
    const hash = createHash("sha256").update(token).digest("hex");
    await raw.set(`docs-chat:session:${hash}`, `0|${now + DAY}|open|${PAYER}`, "PX", DAY);
    const event = {
      _tag: "question",
      at: now - 60_000,
      visitor: "v-upgraded",
      question: "How do I rotate the upgrade keys?",
      declined: false,
      billing: "paid",
      conversation: null,
      answerId: null,
      latencyMs: 12,
      sources: [],
    };
    await raw.zadd("docs-chat:insights:events", now - 60_000, `old-1 ${JSON.stringify(event)}`);
    raw.disconnect();

    const env = {
      REDIS_URL: url,
      CHAIN_NETWORK: "devnet",
      USDC_MINT_ADDRESS: USDC_MINT,
      PAYMENT_WALLET_ADDRESS: WALLET,
      SOLANA_RPC_URL: "http://127.0.0.1:9/unused",
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT_FREE_QUERIES: "3",
      // An index of its own (a fresh clone has none at the default path), made as boot makes it.
      INDEX_PATH: join(mkdtempSync(join(tmpdir(), "upgrade-")), "index.bin"),
    };
    ({ service, app } = await startFromEnv(env));
  });
  afterAll(() => service?.stop());

  const get = (path: string, headers: Record<string, string> = {}) =>
    app.request(path, { headers }, { remoteAddress: CLIENT });

  test("a client's paid credits are still there, at the same path", async () => {
    const status = await (await get("/api/status")).json();
    expect(status).toMatchObject({ success: true, paid: 40, free: 3, remaining: 43 });
  });

  test("a wallet session still opens the wallet's credits", async () => {
    const status = await (await get("/api/status", { [SESSION_HEADER]: token })).json();
    expect(status).toMatchObject({ wallet: PAYER, paid: 65 });
  });

  test("the memo keeps its prefix and the payment endpoint its path", async () => {
    const info = (await (await get("/api/payment/info")).json()) as { memo: string; paymentEndpoint: string };
    expect(info.memo).toMatch(/^docschat:[1-9A-HJ-NP-Za-km-z]{16}$/);
    expect(info.paymentEndpoint).toBe("/api/payment");
  });

  test("the insights recorded before are in the operator's console", async () => {
    const insights = (await (
      await get("/api/admin/insights", { Authorization: `Bearer ${ADMIN}` })
    ).json()) as {
      success: boolean;
    };
    expect(insights.success).toBe(true);
    expect(JSON.stringify(insights)).toContain("rotate the upgrade keys");
  });
});
