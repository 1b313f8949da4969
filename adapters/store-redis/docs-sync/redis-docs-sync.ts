/**
 * DocsSyncStore on Redis, shared by every instance: `docs-sync:lease` holds the syncing
 * instance's id with an expiry (SET NX PX; given back only by its holder), `docs-sync:last`
 * the last sync's record as JSON. One connection of its own, closed with the layer.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { DocsSyncRecord, DocsSyncStore } from "../../../core/ports/docs-sync.ts";
import { StoreUnavailable } from "../../../core/ports/store-errors.ts";
import { DEFAULT_KEY_PREFIX } from "../keys.ts";
import { luaScript, type RedisAddress, runCommand, runScript } from "../redis-client.ts";
import { connection } from "../shared-connection.ts";

export interface RedisDocsSyncOptions {
  readonly url: RedisAddress;
  readonly keyPrefix?: string;
  /** Take the process's shared connection to this URL (a hosted site's record: shared-connection.ts). */
  readonly shareConnection?: boolean;
}

/** KEYS: the lease; ARGV: [holder]. Deletes it only when the holder still has it. */
const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

const decodeRecord = Schema.decodeUnknownEffect(Schema.fromJsonString(DocsSyncRecord));

export const layer = (options: RedisDocsSyncOptions) =>
  Layer.effect(DocsSyncStore)(
    Effect.gen(function* () {
      const client = yield* connection({ url: options.url, shareConnection: options.shareConnection });
      const prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
      const lease = `${prefix}docs-sync:lease`;
      const lastKey = `${prefix}docs-sync:last`;
      return DocsSyncStore.of({
        claim: (holder, _now, ttlMs) =>
          Effect.map(
            runCommand(() => client.set(lease, holder, "PX", ttlMs, "NX")),
            (reply) => reply === "OK",
          ),
        release: (holder) => Effect.asVoid(runScript(client, RELEASE, [lease], [holder])),
        last: Effect.flatMap(
          runCommand(() => client.get(lastKey)),
          (text) =>
            text === null
              ? Effect.succeed(undefined)
              : decodeRecord(text).pipe(
                  Effect.mapError(() => new StoreUnavailable({ reason: "corrupt docs sync record" })),
                ),
        ),
        record: (entry) => Effect.asVoid(runCommand(() => client.set(lastKey, JSON.stringify(entry)))),
      });
    }),
  );
