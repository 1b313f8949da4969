/**
 * The widget's payment retried after a lost response (src/widget/payment-panel.ts resends the same
 * signature on a network error): POST /api/payment with a real transfer carrying the client's
 * memo and the claim's Idempotency-Key, whose 200 the client never sees, then the same claim
 * with the same key, here or on the other instance sharing Redis: the same grant (ten questions,
 * once) and no session, never "already used"; the same address without the key (a neighbour:
 * the signature is public) or any other client is still refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TestChain } from "../support/localnet.ts";
import { chainReaderOf } from "../support/localnet.ts";
import { redisServerAvailable } from "../support/redis-server.ts";
import { twoOnRedis, useRedisServer } from "../support/shared-redis.ts";
import { type TestApp, type TestAppOptions, testApps } from "../support/test-app.ts";
import { startChainWithFacilitator } from "../support/x402-v2.ts";

let chain: TestChain;
const build = testApps(afterAll);
const shared = useRedisServer();
beforeAll(async () => {
  ({ chain } = await startChainWithFacilitator());
});
afterAll(() => chain?.stop());

const onChain = (options: TestAppOptions = {}) =>
  build({
    freeQueries: 0,
    surface: { publicOrigin: "https://docs-chat.example" },
    chain: chainReaderOf(chain),
    ...options,
  });
const STORES = [
  ["memory", () => [onChain(), undefined] as const],
  [
    "two instances on Redis",
    () =>
      twoOnRedis(shared.redis.url, `payment-resend-${crypto.randomUUID()}:`, (store) => onChain({ store })),
  ],
] as const;

const claim = (app: TestApp, signature: string, from: string, key?: string) =>
  app.call(
    "/api/payment",
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(key === undefined ? {} : { "Idempotency-Key": key }),
      },
      body: JSON.stringify({ signature, amount: 0.01, token: "USDC" }),
    },
    from,
  );
const paidOf = async (app: TestApp, from: string, token: string) =>
  (
    (await (await app.call("/api/status", { headers: { "X-Wallet-Session": token } }, from)).json()) as {
      paid: number;
    }
  ).paid;

describe.each(STORES)("a resent payment claim (%s)", (name, apps) => {
  test.skipIf(name !== "memory" && !redisServerAvailable())(
    "a resend with the claim's Idempotency-Key gets the same grant, without a session; without it, or with another key, it is refused",
    async () => {
      const [first, second = first] = apps();
      const from = "198.51.100.77";
      const payer = await chain.fundPayer();
      const info = (await (await first.call("/api/payment/info", {}, from)).json()) as { memo: string };
      const signature = await chain.sendUsdc({ units: 10_000n, memo: info.memo, from: payer });

      const key = crypto.randomUUID().replaceAll("-", "");
      // The grant the client never saw.
      const lost = await claim(first, signature, from, key);
      expect(lost.status).toBe(200);
      const granted = (await lost.json()) as Record<string, unknown> & { session: { token: string } };
      expect(granted).toMatchObject({ queriesGranted: 10, wallet: payer.address });

      // The same address without the key (a neighbour behind the same NAT, the signature being
      // public on chain), or with another key: "already used", as the spec says.
      for (const other of [undefined, crypto.randomUUID().replaceAll("-", "")]) {
        const refused = await claim(second, signature, from, other);
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as { code: string }).code).toBe("SIGNATURE_ALREADY_USED");
      }
      // The resend with its key gets the grant, but no session (the store holds no token).
      const resent = await claim(second, signature, from, key);
      expect(resent.status).toBe(200);
      const again = (await resent.json()) as Record<string, unknown>;
      const { session: _first, ...grant } = granted;
      expect(again).toEqual(grant);
      expect(again).not.toHaveProperty("session");
      // The first session still works; the address keeps what it bought from it, without one.
      expect(await paidOf(first, from, granted.session.token)).toBe(10);
      const status = (await (await second.call("/api/status", {}, from)).json()) as { paid: number };
      expect(status.paid).toBe(10);

      const stranger = await claim(second, signature, "198.51.100.78", key.slice(0, 16));
      expect(stranger.status).toBe(400);
      expect(((await stranger.json()) as { code: string }).code).toBe("SIGNATURE_ALREADY_USED");
    },
  );
});
