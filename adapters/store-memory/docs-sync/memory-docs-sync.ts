/** DocsSyncStore in this process: the lease and the last record of one instance. */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { type DocsSyncRecord, DocsSyncStore } from "../../../core/ports/docs-sync.ts";

export const makeMemoryDocsSync = () => {
  let lease: { holder: string; until: number } | undefined;
  let last: DocsSyncRecord | undefined;
  return DocsSyncStore.of({
    claim: (holder, now, ttlMs) =>
      Effect.sync(() => {
        if (lease !== undefined && lease.holder !== holder && lease.until > now) return false;
        lease = { holder, until: now + ttlMs };
        return true;
      }),
    release: (holder) =>
      Effect.sync(() => {
        if (lease?.holder === holder) lease = undefined;
      }),
    last: Effect.sync(() => last),
    record: (entry) =>
      Effect.sync(() => {
        last = entry;
      }),
  });
};

export const layer = Layer.sync(DocsSyncStore)(makeMemoryDocsSync);
