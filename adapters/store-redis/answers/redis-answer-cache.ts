/**
 * The answer cache on Redis, shared by every service instance. Each answer is one key
 * (`<prefix>answer:<key>`, JSON, expiring after `ttlSeconds`) listed in one sorted set by
 * time written (keys.ts answerCacheKeys: a site's share a hash tag on a cluster); one Lua
 * script writes it and trims the set to `maxEntries`, the caller deleting the oldest answers, so the cache stays bounded even on a Redis that never evicts (the store
 * requires noeviction). Any Redis failure is a miss: a cache never fails an answer.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { AnswerCache } from "../../../core/ports/answer-cache.ts";
import { answerCacheKeys } from "../keys.ts";
import { luaScript, type RedisAddress, runCommand, runScript } from "../redis-client.ts";
import { connection } from "../shared-connection.ts";
import { clusterMode } from "../store-client.ts";
import { deleteDropped, TRIM_INDEX } from "../trim-index-lua.ts";

export interface RedisAnswerCacheOptions {
  readonly url: RedisAddress;
  readonly keyPrefix?: string;
  /** Take the process's shared connection to this URL (a hosted site's cache: shared-connection.ts). */
  readonly shareConnection?: boolean;
  readonly maxEntries?: number;
  readonly ttlSeconds?: number;
}

const SET_AND_TRIM = luaScript(`${TRIM_INDEX}
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[2]))
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), KEYS[1])
return trim_index(KEYS[2], tonumber(ARGV[4]))
`);

const StoredAnswer = Schema.fromJsonString(
  Schema.Struct({
    text: Schema.String,
    tokensUsed: Schema.Number,
    declined: Schema.optionalKey(Schema.Boolean),
    // Without it a remembered answer's [n] would number every passage instead of those it listed.
    listed: Schema.optionalKey(Schema.Array(Schema.Int)),
  }),
);

/** Connects and builds the cache; the connection closes with the layer. */
export const layer = (options: RedisAnswerCacheOptions) =>
  Layer.effect(
    AnswerCache,
    Effect.gen(function* () {
      const client = yield* connection({ url: options.url, shareConnection: options.shareConnection });
      const names = answerCacheKeys(options.keyPrefix ?? "docs-chat:", clusterMode(options));
      const decode = Schema.decodeUnknownOption(StoredAnswer);
      let written = 0;
      return AnswerCache.of({
        get: (key) =>
          runCommand(() => client.get(names.entry(key))).pipe(
            Effect.map((raw) => (raw === null ? undefined : Option.getOrUndefined(decode(raw)))),
            Effect.orElseSucceed(() => undefined),
          ),
        set: (key, answer) =>
          runScript(
            client,
            SET_AND_TRIM,
            [names.entry(key), names.index],
            [
              JSON.stringify(answer),
              options.ttlSeconds ?? 86_400,
              // Write order within one instance breaks ties between equal clock readings.
              Date.now() * 1000 + (written++ % 1000),
              options.maxEntries ?? 10_000,
            ],
          ).pipe(
            // The answers the cap dropped; a lost delete leaves them to their TTL.
            Effect.flatMap((dropped) => runCommand(() => deleteDropped(client, dropped))),
            Effect.ignore,
          ),
      });
    }),
  );
