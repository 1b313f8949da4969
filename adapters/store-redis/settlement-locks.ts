/**
 * SettlementLocks on Redis: `lock:<key>` holds the holder's transaction id with a TTL, so the
 * rule of core/payments/settlement-locks.ts is kept by Redis's expiry. Each step is one Lua
 * script over all the keys of a payment (all or none). The keys may differ in hash slot, so
 * this needs a single Redis node (or primary), like the memo references.
 */

import { Effect } from "effect";
import type { Redis } from "ioredis";
import { SettlementLocks } from "../../core/ports/settlement-locks.ts";
import type { KeyLayout } from "./keys.ts";
import { luaScript, runScript } from "./redis-client.ts";

/**
 * KEYS: the locks; ARGV: [holder, ttlMs]. A lock's value is "<holder>|s" (settling) or
 * "<holder>|c" (cooling down after a failure). 1: all are now the holder's (settling); 2: the
 * holder's own settlement holds one; 0: another's does. The verdicts of acquireVerdict and
 * acquireVerdictOf (core/payments/settlement-locks.ts).
 */
const ACQUIRE = luaScript(`
local own = false
for _, key in ipairs(KEYS) do
  local value = redis.call('GET', key)
  if value then
    if value == ARGV[1] .. '|s' then own = true
    elseif value ~= ARGV[1] .. '|c' then return 0 end
  end
end
if own then return 2 end
for _, key in ipairs(KEYS) do redis.call('SET', key, ARGV[1] .. '|s', 'PX', ARGV[2]) end
return 1
`);

/** KEYS: the locks; ARGV: [holder, coolDownMs]. Only the holder's own locks are touched. */
const RELEASE = luaScript(`
for _, key in ipairs(KEYS) do
  local value = redis.call('GET', key)
  if value == ARGV[1] .. '|s' or value == ARGV[1] .. '|c' then
    if tonumber(ARGV[2]) > 0 then redis.call('SET', key, ARGV[1] .. '|c', 'PX', ARGV[2])
    else redis.call('DEL', key) end
  end
end
return 1
`);

const VERDICTS = { 1: "acquired", 2: "held-by-holder", 0: "held-by-other" } as const;

export const redisLocks = (client: Redis, keys: KeyLayout) => {
  const names = (locks: ReadonlyArray<string>) => locks.map(keys.settlementLock);
  return SettlementLocks.of({
    acquire: (locks, holder, _now, ttlMs) =>
      Effect.map(
        runScript(client, ACQUIRE, names(locks), [holder, ttlMs]),
        (reply) => VERDICTS[reply as keyof typeof VERDICTS] ?? "held-by-other",
      ),
    release: (locks, holder, _now, coolDownMs) =>
      Effect.asVoid(runScript(client, RELEASE, names(locks), [holder, coolDownMs])),
  });
};
