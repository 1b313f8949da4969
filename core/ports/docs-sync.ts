/**
 * The background sync of a docs site, shared by the instances of a deployment: one sync at a
 * time (a lease with an expiry, so a crashed holder cannot block the next one forever), and
 * the record of the last sync that /readyz and the owner's console show. Memory for one
 * instance, Redis when several share it.
 */
import * as Context from "effect/Context";
import type * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import type { StoreUnavailable } from "./store-errors.ts";

/** What the last sync did, or why it failed (then the index kept what it had). */
export const DocsSyncRecord = Schema.Struct({
  /** When it finished, epoch ms. */
  at: Schema.Number,
  ok: Schema.Boolean,
  url: Schema.String,
  durationMs: Schema.Number,
  /** How pages were found: "sitemap", "llms.txt", "crawl", "llms-full.txt" ("" when failed). */
  via: Schema.String,
  pages: Schema.Number,
  changed: Schema.Number,
  removed: Schema.Number,
  /** Pages that could not be read this time (they keep their previous text). */
  errors: Schema.Number,
  /** Why the sync failed, in one line; absent when it succeeded. */
  problem: Schema.optional(Schema.String),
});
export type DocsSyncRecord = typeof DocsSyncRecord.Type;

export class DocsSyncStore extends Context.Service<
  DocsSyncStore,
  {
    /** Takes the sync lease for `holder` until `now + ttlMs` unless another holds it; true when taken. */
    readonly claim: (holder: string, now: number, ttlMs: number) => Effect.Effect<boolean, StoreUnavailable>;
    /** Gives the lease back if `holder` still has it. */
    readonly release: (holder: string) => Effect.Effect<void, StoreUnavailable>;
    readonly last: Effect.Effect<DocsSyncRecord | undefined, StoreUnavailable>;
    readonly record: (entry: DocsSyncRecord) => Effect.Effect<void, StoreUnavailable>;
  }
>()("core/DocsSyncStore") {}

/** Whether a sync is due: none yet, or the last one finished at least `everyMs` ago (a failed one too). */
export const syncDue = (last: DocsSyncRecord | undefined, now: number, everyMs: number): boolean =>
  last === undefined || now - last.at >= everyMs;
