/**
 * SponsorLosses on Redis, the rule of core/payments/sponsor-losses.ts in Lua:
 *
 *   sponsor-strikes:<wallet>  hash: strikes, refusedUntil, lastAt (epoch ms by the callers'
 *                             clock); forgotten STRIKE_MEMORY_MS after lastAt (by `now`, as the
 *                             memory store goes; the TTL only frees the memory)
 *   sponsor-lost:<hour>       the lamports lost in that UTC hour (INCRBY), kept two hours
 */
import * as Effect from "effect/Effect";
import {
  LOSS_WINDOW_MS,
  lossWindowOf,
  PAYER_COOL_DOWNS_MS,
  STRIKE_MEMORY_MS,
} from "../../../core/payments/sponsor-losses.ts";
import { SponsorLosses } from "../../../core/ports/sponsor-losses-store.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { luaScript, runScript } from "../redis-client.ts";
import type { StoreClient } from "../store-client.ts";

/** Shared by both scripts: ARGV[1] = now, ARGV[2] = the strike memory. The wallet's live record, or nil. */
const PRELUDE = `
local now = tonumber(ARGV[1])
local function strikesOf()
  local lastAt = tonumber(redis.call('HGET', KEYS[1], 'lastAt') or '')
  if lastAt == nil or now - lastAt >= tonumber(ARGV[2]) then return nil end
  return tonumber(redis.call('HGET', KEYS[1], 'strikes') or '0'), tonumber(redis.call('HGET', KEYS[1], 'refusedUntil') or '0')
end
`;

/** KEYS: [strikes, lost]; ARGV: [now, memory]. Reply: {refusedUntil, lostThisHour}. */
const STANDING = luaScript(`${PRELUDE}
local _, refused = strikesOf()
return { refused or 0, tonumber(redis.call('GET', KEYS[2]) or '0') }
`);

/** KEYS: [strikes, lost]; ARGV: [now, memory, lamports, window ms, cool-downs...]. strikeAfterLoss, and the hour's sum. */
const RECORD_LOSS = luaScript(`${PRELUDE}
local strikes = (strikesOf() or 0) + 1
local coolDowns = #ARGV - 4
local refused = now + tonumber(ARGV[4 + math.min(strikes, coolDowns)])
redis.call('HSET', KEYS[1], 'strikes', strikes, 'refusedUntil', refused, 'lastAt', now)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
local lost = redis.call('INCRBY', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], 2 * tonumber(ARGV[4]))
return { refused, lost }
`);

const standingOf = (reply: unknown) => {
  if (!Array.isArray(reply) || reply.length !== 2)
    return Effect.fail(new StoreUnavailable({ reason: "corrupt sponsor losses" }));
  return Effect.succeed({ refusedUntil: Number(reply[0]), lostThisHour: Number(reply[1]) });
};

export const redisSponsorLosses = (client: StoreClient, prefix: string) => {
  const keys = (wallet: string, now: number) => [
    `${prefix}sponsor-strikes:${wallet}`,
    `${prefix}sponsor-lost:${lossWindowOf(now)}`,
  ];
  return SponsorLosses.of({
    standing: (wallet, now) =>
      Effect.flatMap(runScript(client, STANDING, keys(wallet, now), [now, STRIKE_MEMORY_MS]), standingOf),
    recordLoss: (wallet, lamports, now) =>
      Effect.flatMap(
        runScript(client, RECORD_LOSS, keys(wallet, now), [
          now,
          STRIKE_MEMORY_MS,
          lamports,
          LOSS_WINDOW_MS,
          ...PAYER_COOL_DOWNS_MS,
        ]),
        standingOf,
      ),
  });
};
