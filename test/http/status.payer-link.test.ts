/**
 * GET /api/status of a client that paid from its address and sends no session: its free
 * question plus what its payer link leaves it of the wallet (core/payments/link-allowance.ts),
 * read in one step (WalletCredits.viewAsPayer), on the memory store and on Redis alike.
 */
import { describe, expect, test } from "bun:test";
import * as Effect from "effect/Effect";
import { RedisStore } from "../../adapters/store-redis/index.ts";
import { walletAccount } from "../../core/payments/wallet-credits.ts";
import { PaymentStore } from "../../core/ports/payment-store.ts";
import { WalletSessions } from "../../core/ports/wallet-sessions.ts";
import { hashSessionToken, newSessionToken, SESSION_HEADER } from "../../src/sign-in/session-token.ts";
import { useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, testApps } from "../support/test-app.ts";

const limits = { freePerDay: 1, paidDailyCap: 1000, holdTtlMs: 120_000 };
const WALLET = "8a5uiSArRfLkoGX8Myr44L15hddBADyHvqZdFzeM98Ng";
const LINKED = "203.0.113.20";
const STRANGER = "203.0.113.21";
const DAY = 86_400_000;
const shared = useRedisServer();

describe.each(["memory", "Redis"] as const)("status through a payer link on %s", (store) => {
  const build = testApps();
  const app = (): TestApp =>
    build({
      freeQueries: 1,
      ...(store === "Redis"
        ? {
            store: RedisStore.layer({
              url: shared.redis.url,
              limits,
              keyPrefix: `st-${crypto.randomUUID()}:`,
            }),
          }
        : {}),
    });
  const status = async (t: TestApp, from: string) => (await t.call("/api/status", {}, from)).json();

  test("the linked address sees the questions bought through it; another address and a voided link do not", async () => {
    const t = app();
    await t.runtime.runPromise(
      Effect.gen(function* () {
        const now = Date.now();
        // Three questions bought through LINKED, two more bought elsewhere (the session's alone).
        yield* (yield* PaymentStore).claim("sig-status-1", walletAccount(WALLET), 5, now);
        yield* (yield* WalletSessions).link(LINKED, WALLET, 3, now + DAY, now);
      }),
    );
    expect(await status(t, LINKED)).toMatchObject({ remaining: 4, free: 1, paid: 3, requiresPayment: false });
    expect(await status(t, STRANGER)).toMatchObject({ remaining: 1, free: 1, paid: 0 });
    await t.runtime.runPromise(Effect.flatMap(WalletSessions, (s) => s.closeAll(WALLET, Date.now())));
    expect(await status(t, LINKED)).toMatchObject({ remaining: 1, free: 1, paid: 0 });
  });

  test("a session's holder sees its identity's and its wallet's questions and the wallet; a revoked one is refused", async () => {
    const t = app();
    const token = newSessionToken();
    const hash = await hashSessionToken(token);
    await t.runtime.runPromise(
      Effect.gen(function* () {
        const now = Date.now();
        yield* (yield* PaymentStore).claim("sig-status-2", walletAccount(WALLET), 5, now);
        yield* (yield* WalletSessions).open(hash, WALLET, now + DAY, now);
      }),
    );
    const withSession = (value: string) =>
      t.call("/api/status", { headers: { [SESSION_HEADER]: value } }, STRANGER);
    expect(await (await withSession(token)).json()).toMatchObject({
      remaining: 6,
      free: 1,
      paid: 5,
      wallet: WALLET,
    });
    expect((await (await withSession(newSessionToken())).json()).code).toBe("SESSION_UNKNOWN");
    expect((await (await withSession("not a token")).json()).code).toBe("SESSION_UNKNOWN");
    await t.runtime.runPromise(Effect.flatMap(WalletSessions, (s) => s.closeAll(WALLET, Date.now())));
    expect((await (await withSession(token)).json()).code).toBe("SESSION_REVOKED");
  });
});
