/**
 * Conversations on Redis, so a follow-up that reaches another instance keeps its history:
 *
 *   conversation:<key>  list of the recent turns (JSON), trimmed to the last `maxTurns`; it
 *                       expires `idleTtlMs` after its last append
 *   conversations       sorted set of conversation keys by last append: the cap in all. Past
 *                       `maxConversations` the least recently used are dropped.
 *
 * Each script touches one key, so each runs on Redis Cluster whatever slot the other lands in;
 * the keys of conversations the cap drops are deleted by name from TypeScript, not built in Lua.
 * A conversation dropped between the two steps is merely forgotten early, which costs follow-up
 * context, never money.
 */
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import {
  CONVERSATION_LIMITS,
  type ConversationLimits,
  Conversations,
  keptTurns,
} from "../../core/ports/conversations.ts";
import type { ChatTurn } from "../../core/ports/generator.ts";
import { luaScript, runCommand, runScript } from "./redis-client.ts";
import type { StoreClient } from "./store-client.ts";

/** KEYS = [conversation:<key>], ARGV = [maxTurns, idleTtlMs, ...turns as JSON]. */
const APPEND = luaScript(`
for i = 3, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[1]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/**
 * KEYS = [conversations], ARGV = [now, idleTtlMs, maxConversations, key]: records the key's
 * append, forgets the entries of expired conversations, and pops (returns) the least recently
 * used keys past the cap.
 */
const INDEX = luaScript(`
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (tonumber(ARGV[1]) - tonumber(ARGV[2])))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if excess <= 0 then return {} end
local popped = redis.call('ZPOPMIN', KEYS[1], excess)
local keys = {}
for i = 1, #popped, 2 do keys[#keys + 1] = popped[i] end
return keys
`);

const Turn = Schema.fromJsonString(
  Schema.Struct({ role: Schema.Literals(["user", "assistant"]), content: Schema.String }),
);
const decodeTurn = Schema.decodeUnknownOption(Turn);

export const redisConversations = (
  client: StoreClient,
  prefix: string,
  options: Partial<ConversationLimits> = {},
) => {
  const limits = { ...CONVERSATION_LIMITS, ...options };
  const keyOf = (conversationId: string) => `${prefix}conversation:${conversationId}`;
  const index = `${prefix}conversations`;
  return Conversations.of({
    recent: Effect.fn("RedisStore.recentTurns")(function* (conversationId) {
      if (conversationId.length > limits.maxKeyChars) return [];
      const stored = yield* runCommand(() => client.lrange(keyOf(conversationId), 0, -1));
      // A turn this code did not write is skipped, never passed to the model as history.
      return stored.flatMap((text): ChatTurn[] => {
        const turn = decodeTurn(text);
        return turn._tag === "Some" ? [turn.value] : [];
      });
    }),
    append: Effect.fn("RedisStore.appendTurns")(function* (conversationId, turns) {
      const kept = keptTurns(turns, limits);
      if (conversationId.length > limits.maxKeyChars || limits.maxTurns <= 0 || kept.length === 0) return;
      const encoded = kept.map((turn) => JSON.stringify(turn));
      yield* runScript(
        client,
        APPEND,
        [keyOf(conversationId)],
        [limits.maxTurns, limits.idleTtlMs, ...encoded],
      );
      const now = yield* Clock.currentTimeMillis;
      const dropped = yield* runScript(
        client,
        INDEX,
        [index],
        [now, limits.idleTtlMs, limits.maxConversations, conversationId],
      );
      for (const key of dropped as ReadonlyArray<string>) yield* runCommand(() => client.del(keyOf(key)));
    }),
  });
};
