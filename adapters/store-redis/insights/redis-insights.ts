/**
 * InsightsStore on Redis: one sorted set `insights:events`, scored by the event's time, each
 * member `<random id> <event JSON>` (the id keeps two equal events apart). An append is one
 * Lua script that adds the event, drops what is older than the retention (judged at the event's
 * time) and, past the cap, the oldest, and lets the whole key expire after the retention of
 * silence. Reads take one score range; a member the schema cannot read is skipped.
 */
import * as Effect from "effect/Effect";
import { decodeEvent, encodeEvent } from "../../../core/insights/events.ts";
import { type InsightsBounds, InsightsStore } from "../../../core/ports/insights-store.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import type { StoreClient } from "../store-client.ts";

/** KEYS = [insights], ARGV = [at, member, oldest kept, max events, retention ms]. */
const APPEND = luaScript(`
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`);

const eventOf = (member: string) => decodeEvent(member.slice(member.indexOf(" ") + 1));

export const redisInsights = (
  client: StoreClient,
  keys: KeyLayout,
  { retentionMs, maxEvents }: InsightsBounds,
) =>
  InsightsStore.of({
    append: Effect.fn("RedisStore.appendInsight")(function* (event) {
      const member = `${crypto.randomUUID()} ${encodeEvent(event)}`;
      yield* runScript(
        client,
        APPEND,
        [keys.insights],
        [event.at, member, event.at - retentionMs, maxEvents, retentionMs],
      );
    }),
    between: Effect.fn("RedisStore.insightsBetween")(function* (from, to, now) {
      const lower = Math.max(from, now - retentionMs);
      const members = yield* runCommand(() =>
        client.zrangebyscore(keys.insights, lower, `(${to}`, "LIMIT", 0, maxEvents),
      );
      return members.flatMap((member) => eventOf(member) ?? []);
    }),
  });
