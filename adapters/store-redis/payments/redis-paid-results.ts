/**
 * PaidResults on Redis, shared by every instance: each result is one key
 * (`<prefix>pid:<key>`, JSON, expiring with its retention) listed in one sorted set by the time
 * it was kept; one script keeps it unless a result is there already (the first stays) and trims
 * the set to the cap, deleting the oldest results, so it stays bounded on a Redis that never
 * evicts (the store requires noeviction).
 */
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import * as Schema from "effect/Schema";
import { MAX_PAID_RESULTS, PAID_RESULT_RETENTION_MS } from "../../../core/payments/payment-identifier.ts";
import { PaidResults } from "../../../core/ports/paid-results.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import { type ReplicatedClaims, unreplicated } from "../replicated-claims.ts";
import type { StoreClient } from "../store-client.ts";
import { deleteDropped, TRIM_INDEX } from "../trim-index-lua.ts";

const KEEP_FIRST = luaScript(`${TRIM_INDEX}
local kept = redis.call('GET', KEYS[1])
if kept then return { kept, {} } end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[2]))
return { ARGV[1], trim_index(KEYS[2], tonumber(ARGV[4])) }
`);

const StoredResult = Schema.fromJsonString(
  Schema.Struct({
    digest: Schema.String,
    status: Schema.Number,
    headers: Schema.Record(Schema.String, Schema.String),
    body: Schema.optionalKey(Schema.String),
    keptAt: Schema.Number,
  }),
);
const decode = Schema.decodeUnknownOption(StoredResult);

const decoded = (raw: unknown) => {
  const result = typeof raw === "string" ? Option.getOrUndefined(decode(raw)) : undefined;
  return result === undefined
    ? Effect.fail(new StoreUnavailable({ reason: "redis holds an unreadable paid result" }))
    : Effect.succeed({ ...result, body: result.body });
};

/** `replicated`: the writer a kept result waits for replicas through (it decides what a retry is served). */
export const redisPaidResults = (
  client: StoreClient,
  keys: KeyLayout,
  maxResults = MAX_PAID_RESULTS,
  replicated: ReplicatedClaims = unreplicated(client),
) =>
  PaidResults.of({
    find: Effect.fn("RedisStore.findPaidResult")(function* (key, _now) {
      const raw = yield* runCommand(() => client.get(keys.paidResult(key)));
      return raw === null ? undefined : yield* decoded(raw);
    }),
    keep: Effect.fn("RedisStore.keepPaidResult")(function* (key, result, now) {
      const stored = JSON.stringify(result.body === undefined ? { ...result, body: undefined } : result);
      const raw = yield* replicated(() =>
        runScript(
          replicated.client,
          KEEP_FIRST,
          [keys.paidResult(key), keys.paidResults],
          [stored, PAID_RESULT_RETENTION_MS, now, maxResults],
        ),
      );
      const [kept, dropped] = Array.isArray(raw) ? raw : [];
      // The results the cap dropped. The result is kept whatever becomes of this delete: a lost
      // one leaves them to their one-day expiry, and must not fail the keep.
      yield* Effect.ignore(runCommand(() => deleteDropped(client, dropped)));
      return yield* decoded(kept);
    }),
  });
