/**
 * SettlementLocks on Redis: `lock:<key>` holds the holder's transaction id and the instant it
 * lapses, the rule of core/payments/settlement-locks.ts. Each step is one Lua
 * script over all the keys of a payment (all or none). A payer's and a token account's locks are
 * unrelated names (an account can have a delegate), so on a Redis Cluster every lock carries the
 * one lock tag (keys.ts): settlements are few, one slot carries them.
 */

import * as Effect from "effect/Effect";
import { SettlementLocks } from "../../../core/ports/settlement-locks-store.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runScript } from "../redis-client.ts";
import type { StoreClient } from "../store-client.ts";

/**
 * A lock's value is "<holder>|s|<until>" (settling) or "<holder>|c|<until>" (cooling down after
 * a failure), `until` in epoch ms by the callers' clock, as the memory store keeps it: a lock
 * lapses when the caller's `now` reaches it, never by Redis's own clock, so both stores agree on
 * every transition. The key's expiry (PX, `until` plus a minute for clocks that differ between
 * instances) only frees the memory. A value of the older form "<holder>|s" counts as live until
 * its key expires, so a rolling deploy never lets a settlement in flight be doubled.
 */
const LOCK_PRELUDE = `
local now = tonumber(ARGV[2])
local function lockOf(value)
  if not value then return nil end
  local holder, kind, untilText = string.match(value, '^(.*)|([sc])|(%d+)$')
  if holder then
    if tonumber(untilText) <= now then return nil end
    return holder, kind
  end
  return string.match(value, '^(.*)|([sc])$')
end
local function hold(key, kind, ttl)
  redis.call('SET', key, ARGV[1] .. '|' .. kind .. '|' .. string.format('%d', now + ttl), 'PX', ttl + 60000)
end
`;

/**
 * KEYS: the locks; ARGV: [holder, now, ttlMs]. 1: all are now the holder's (settling); 2: the
 * holder's own settlement holds one; 0: another's does. The verdicts of acquireVerdict and
 * acquireVerdictOf (core/payments/settlement-locks.ts).
 */
const ACQUIRE = luaScript(`${LOCK_PRELUDE}
local own = false
for _, key in ipairs(KEYS) do
  local holder, kind = lockOf(redis.call('GET', key))
  if holder then
    if holder ~= ARGV[1] then return 0 end
    if kind == 's' then own = true end
  end
end
if own then return 2 end
for _, key in ipairs(KEYS) do hold(key, 's', tonumber(ARGV[3])) end
return 1
`);

/** KEYS: the locks; ARGV: [holder, now, coolDownMs]. Lapsed locks go; of the live ones only the holder's are touched. */
const RELEASE = luaScript(`${LOCK_PRELUDE}
for _, key in ipairs(KEYS) do
  local value = redis.call('GET', key)
  local holder = lockOf(value)
  if value and not holder then redis.call('DEL', key)
  elseif holder == ARGV[1] then
    if tonumber(ARGV[3]) > 0 then hold(key, 'c', tonumber(ARGV[3]))
    else redis.call('DEL', key) end
  end
end
return 1
`);

const VERDICTS = { 1: "acquired", 2: "held-by-holder", 0: "held-by-other" } as const;

export const redisLocks = (client: StoreClient, keys: KeyLayout) => {
  const names = (locks: ReadonlyArray<string>) => locks.map(keys.settlementLock);
  return SettlementLocks.of({
    acquire: (locks, holder, now, ttlMs) =>
      Effect.map(
        runScript(client, ACQUIRE, names(locks), [holder, now, ttlMs]),
        (reply) => VERDICTS[reply as keyof typeof VERDICTS] ?? "held-by-other",
      ),
    release: (locks, holder, now, coolDownMs) =>
      Effect.asVoid(runScript(client, RELEASE, names(locks), [holder, now, coolDownMs])),
  });
};
