/**
 * PendingSettlements on Redis, the rule of core/payments/pending-settlement.ts in Lua:
 *
 *   pending-settlements        hash: transaction signature -> the entry as JSON (no TTL: an entry
 *                              lives until it is closed; the table is capped)
 *   pending-settlements:lease  the reconciling instance's id, with an expiry (SET NX PX; given
 *                              back only by its holder), as the docs sync's lease
 */
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import {
  MAX_PENDING_SETTLEMENTS,
  type PendingSettlement,
} from "../../../core/payments/pending-settlement.ts";
import { PendingSettlements } from "../../../core/ports/pending-settlements.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { luaScript, runCommand, runScript } from "../redis-client.ts";
import { type ReplicatedClaims, unreplicated } from "../replicated-claims.ts";
import type { StoreClient } from "../store-client.ts";

/** KEYS: [table]; ARGV: [signature, json, max]. 1: recorded (or replaced); 0: the table is full. */
const RECORD = luaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`);

/** KEYS: [table]; ARGV: [signature, lease]. 1: removed by this call (`closes`); 0: absent or another lease's. */
const CLOSE = luaScript(`
local value = redis.call('HGET', KEYS[1], ARGV[1])
if not value then return 0 end
local ok, entry = pcall(cjson.decode, value)
if not ok or type(entry) ~= 'table' or entry.lease ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
`);

/** KEYS: [lease]; ARGV: [holder]. Deletes it only when the holder still has it. */
const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

const Entry = Schema.Struct({
  signature: Schema.String,
  kind: Schema.Literals(["credit", "paywall", "facilitator"]),
  paymentId: Schema.String,
  lease: Schema.String,
  resource: Schema.String,
  method: Schema.String,
  identity: Schema.String,
  queries: Schema.Number,
  payer: Schema.String,
  blockhash: Schema.String,
  since: Schema.Number,
});
const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(Entry));
const entryOf = (text: string) =>
  decode(text).pipe(Effect.mapError(() => new StoreUnavailable({ reason: "corrupt pending settlement" })));

export const redisPendingSettlements = (
  client: StoreClient,
  prefix: string,
  max = MAX_PENDING_SETTLEMENTS,
  // A recorded settlement is money in flight: the reconciler credits or serves it from this entry.
  replicated: ReplicatedClaims = unreplicated(client),
) => {
  const table = `${prefix}pending-settlements`;
  const lease = `${prefix}pending-settlements:lease`;
  return PendingSettlements.of({
    record: (entry: PendingSettlement) =>
      Effect.map(
        replicated(() =>
          runScript(replicated.client, RECORD, [table], [entry.signature, JSON.stringify(entry), max]),
        ),
        (reply) => reply === 1,
      ),
    find: (signature) =>
      Effect.flatMap(
        runCommand(() => client.hget(table, signature)),
        (text) => (text === null ? Effect.succeed(undefined) : entryOf(text)),
      ),
    list: (count) =>
      Effect.flatMap(
        runCommand(() => client.hvals(table)),
        (texts) => Effect.forEach(texts.slice(0, count), entryOf),
      ),
    close: (signature, owner) =>
      Effect.map(runScript(client, CLOSE, [table], [signature, owner]), (reply) => reply === 1),
    claimReconciler: (holder, _now, ttlMs) =>
      Effect.map(
        runCommand(() => client.set(lease, holder, "PX", ttlMs, "NX")),
        (reply) => reply === "OK",
      ),
    releaseReconciler: (holder) => Effect.asVoid(runScript(client, RELEASE, [lease], [holder])),
  });
};
