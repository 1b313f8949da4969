/**
 * ChainLookupBudget on Redis, shared by every instance: the rule of
 * core/payments/chain-lookup-budget.ts in one Lua script, so concurrent lookups on several
 * instances never pass a ceiling together. Keys (keys.ts): `lookups:<window>:all` and
 * `lookups:<window>:c:<client>` count one minute and expire with it; `lookups:p:<paymentId>`
 * is the set of signatures a payment_id was looked up with, expiring with its request. The
 * payment key may be in another hash slot: a single Redis node (or primary), like the locks.
 */
import * as Effect from "effect/Effect";
import type { Redis } from "ioredis";
import { windowOf } from "../../core/payments/chain-lookup-budget.ts";
import { ChainLookupBudget } from "../../core/ports/chain-lookup-budget.ts";
import type { KeyLayout } from "./keys.ts";
import { luaScript, runScript } from "./redis-client.ts";

/**
 * KEYS: [client count, global count, payment set (optional)]; ARGV: [signature, perClient,
 * perMinute, perPayment, window ms left, payment ms left]. The checks in admitLookup's order;
 * "ok" after counting in all, or the refusing scope, nothing written.
 */
const RESERVE = luaScript(`
local payment = KEYS[3]
if payment and redis.call('SISMEMBER', payment, ARGV[1]) == 0
  and redis.call('SCARD', payment) >= tonumber(ARGV[4]) then return 'payment' end
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[2]) then return 'client' end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[3]) then return 'everyone' end
for i = 1, 2 do
  redis.call('INCR', KEYS[i])
  redis.call('PEXPIRE', KEYS[i], ARGV[5])
end
if payment then
  redis.call('SADD', payment, ARGV[1])
  -- Kept until the latest admitted lookup's horizon (PAYMENT_COUNTER_MAX_MS at most from it).
  if redis.call('PTTL', payment) < tonumber(ARGV[6]) then redis.call('PEXPIRE', payment, ARGV[6]) end
end
return 'ok'
`);

/** A window's counters outlive it a little, so clocks a second apart never read a fresh zero. */
const WINDOW_MARGIN_MS = 5_000;

export const redisLookupBudget = (client: Redis, keys: KeyLayout) =>
  ChainLookupBudget.of({
    reserve: Effect.fn("RedisStore.reserveLookup")(function* (request, ceilings, now) {
      const { window, leftMs } = windowOf(now);
      const { payment } = request;
      const reply = yield* runScript(
        client,
        RESERVE,
        [
          keys.lookupsOfClient(window, request.client),
          keys.lookupsOfAll(window),
          ...(payment === undefined ? [] : [keys.lookupsOfPayment(payment.id)]),
        ],
        [
          request.signature,
          ceilings.perClientPerMinute,
          ceilings.perMinute,
          ceilings.perPayment,
          leftMs + WINDOW_MARGIN_MS,
          Math.max(1, (payment?.expiresAt ?? now) - now),
        ],
      );
      if (reply === "ok") return { admitted: true } as const;
      if (reply === "payment") return { admitted: false, scope: "payment" } as const;
      return {
        admitted: false,
        scope: reply === "client" ? "client" : "everyone",
        retryAfterMs: leftMs,
      } as const;
    }),
  });
