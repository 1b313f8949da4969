/**
 * CeilingCounter on Redis, shared by every instance: one Lua script checks every counter a
 * request names and counts it in all, or in none, so concurrent requests on several instances
 * never pass a ceiling together. Every key is built in TypeScript (the store's prefix and the
 * counter's key, core/ceilings/counters.ts) and passed as KEYS; the script composes none, so the
 * keys can later carry a hash tag for a cluster. A plain counter is a string (INCR); a counter of
 * distinct members is a set (SADD). Each is kept at least its `keepMs` (extended, never cut).
 */
import * as Effect from "effect/Effect";
import { duplicateKey } from "../../../core/ceilings/counters.ts";
import { CeilingCounter, type Counter, KEPT_SUFFIX } from "../../../core/ports/ceiling-counter.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import type { StoreClient } from "../store-client.ts";

/**
 * KEYS: the counters; ARGV[1]: "admit", "give-back" or "keep", then per counter its limit, keep
 * ms, kind ("count", "distinct" or "check") and member. admit: 0 after counting in all, or the
 * 1-based position of the first full counter (nothing written). give-back: one off each live
 * count, its member out of each distinct counter (nothing from a check), 0. keep: each distinct
 * counter's member, if there, renamed to its kept name (still counted, never given back), 0.
 */
const COUNTERS = luaScript(`
local give = ARGV[1] == 'give-back'
local function arg(i, k) return ARGV[1 + 4 * (i - 1) + k] end
if ARGV[1] == 'keep' then
  for i = 1, #KEYS do
    if arg(i, 3) == 'distinct' and redis.call('SREM', KEYS[i], arg(i, 4)) == 1 then
      redis.call('SADD', KEYS[i], arg(i, 4) .. '${KEPT_SUFFIX}')
    end
  end
  return 0
end
if give then
  for i = 1, #KEYS do
    local kind = arg(i, 3)
    if kind == 'distinct' then redis.call('SREM', KEYS[i], arg(i, 4))
    elseif kind == 'count' and tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
  end
  return 0
end
for i = 1, #KEYS do
  local limit, kind = tonumber(arg(i, 1)), arg(i, 3)
  if kind == 'distinct' then
    if redis.call('SISMEMBER', KEYS[i], arg(i, 4)) == 0 and redis.call('SCARD', KEYS[i]) >= limit then return i end
  elseif tonumber(redis.call('GET', KEYS[i]) or '0') >= limit then return i end
end
for i = 1, #KEYS do
  local keep, kind = tonumber(arg(i, 2)), arg(i, 3)
  if kind ~= 'check' then
    if kind == 'distinct' then redis.call('SADD', KEYS[i], arg(i, 4)) else redis.call('INCR', KEYS[i]) end
    if redis.call('PTTL', KEYS[i]) < keep then redis.call('PEXPIRE', KEYS[i], keep) end
  end
end
return 0
`);

const argsOf = (mode: "admit" | "give-back" | "keep", counters: ReadonlyArray<Counter>) => [
  mode,
  ...counters.flatMap((counter) => [
    counter.limit,
    Math.max(1, Math.ceil(counter.keepMs)),
    counter.kind,
    counter.member ?? "",
  ]),
];

/** The counters under `prefix` (the service's: every site shares them). */
export const redisCeilingCounter = (client: StoreClient, prefix: string) => {
  const keysOf = (counters: ReadonlyArray<Counter>) => counters.map((counter) => `${prefix}${counter.key}`);
  return CeilingCounter.of({
    admit: Effect.fn("RedisStore.admitCeilings")(function* (counters, _now) {
      if (counters.length === 0) return { admitted: true } as const;
      const twice = duplicateKey(counters);
      if (twice !== undefined)
        return yield* Effect.die(new Error(`counter ${twice} named twice in one admit`));
      const reply = yield* runScript(client, COUNTERS, keysOf(counters), argsOf("admit", counters));
      const refusedBy = typeof reply === "number" && reply > 0 ? counters[reply - 1] : undefined;
      return refusedBy === undefined
        ? ({ admitted: true } as const)
        : ({ admitted: false, refusedBy } as const);
    }),
    giveBack: Effect.fn("RedisStore.giveBackCeilings")(function* (counters, _now) {
      if (counters.length === 0) return;
      yield* runScript(client, COUNTERS, keysOf(counters), argsOf("give-back", counters));
    }),
    keep: Effect.fn("RedisStore.keepCeilings")(function* (counters, _now) {
      if (counters.length === 0) return;
      yield* runScript(client, COUNTERS, keysOf(counters), argsOf("keep", counters));
    }),
    used: (counter, _now) => {
      const [key] = keysOf([counter]) as [string];
      return counter.kind !== "distinct"
        ? Effect.map(
            runCommand(() => client.get(key)),
            (count) => Number(count ?? "0"),
          )
        : runCommand(() => client.scard(key));
    },
  });
};
