/**
 * UnattributedPayments on Redis, the rule of core/payments/unattributed.ts: a sorted set
 * `unattributed:at` (member: the transaction signature, score: its block time) and a hash
 * `unattributed:entries` (signature -> the entry's JSON). A record is one Lua script: nothing
 * when the signature is listed, else both written, then what is older than the retention (at
 * the caller's `now`) and, past the cap, the oldest dropped from both. Ties in time go by
 * signature, as the sorted set orders them and the memory store sorts.
 */
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import {
  UNATTRIBUTED_REASONS,
  type UnattributedBounds,
  type UnattributedPayment,
} from "../../../core/payments/unattributed.ts";
import { UnattributedPayments } from "../../../core/ports/unattributed-payments.ts";
import type { KeyLayout } from "../keys.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import { type ReplicatedClaims, unreplicated } from "../replicated-claims.ts";
import type { StoreClient } from "../store-client.ts";

/** KEYS = [at set, entries hash], ARGV = [signature, JSON, at, kept above (exclusive), max entries]. */
const RECORD = luaScript(`
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
local extra = redis.call('ZCARD', KEYS[1]) - #gone - tonumber(ARGV[5])
if extra > 0 then
  local more = redis.call('ZRANGE', KEYS[1], #gone, #gone + extra - 1)
  for _, member in ipairs(more) do gone[#gone + 1] = member end
end
for _, member in ipairs(gone) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('HDEL', KEYS[2], member)
end
return 1
`);

const Stored = Schema.Struct({
  signature: Schema.String,
  payer: Schema.String,
  units: Schema.BigIntFromString,
  at: Schema.Number,
  reason: Schema.Literals(UNATTRIBUTED_REASONS),
  paymentId: Schema.String,
});
const StoredJson = Schema.fromJsonString(Stored);
const encode = Schema.encodeSync(StoredJson);
const decode = Schema.decodeUnknownOption(StoredJson);

/** `replicated`: a payment listed for refund waits for replicas (the owner refunds from this list). */
export const redisUnattributed = (
  client: StoreClient,
  keys: KeyLayout,
  bounds: UnattributedBounds,
  replicated: ReplicatedClaims = unreplicated(client),
) =>
  UnattributedPayments.of({
    record: Effect.fn("RedisStore.recordUnattributed")(function* (payment, now) {
      yield* replicated(() =>
        runScript(
          replicated.client,
          RECORD,
          [keys.unattributedAt, keys.unattributedEntries],
          [payment.signature, encode(payment), payment.at, now - bounds.retentionMs, bounds.maxEntries],
        ),
      );
    }),
    between: Effect.fn("RedisStore.unattributedBetween")(function* (from, to, now) {
      // Kept means at > now - retention: the lower bound is exclusive there.
      const cutoff = now - bounds.retentionMs;
      const lower = from > cutoff ? `${from}` : `(${cutoff}`;
      const signatures = yield* runCommand(() =>
        client.zrangebyscore(keys.unattributedAt, lower, `(${to}`, "LIMIT", 0, bounds.maxEntries),
      );
      if (signatures.length === 0) return [];
      const texts = yield* runCommand(() => client.hmget(keys.unattributedEntries, ...signatures));
      return texts.flatMap((text): ReadonlyArray<UnattributedPayment> => {
        if (text === null) return [];
        const entry = decode(text);
        return entry._tag === "Some" ? [entry.value] : [];
      });
    }),
  });
