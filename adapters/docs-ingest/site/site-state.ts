/**
 * What a sync remembers of each page for the next one: where it is cited from, the hash of
 * its content and the validators that let the next sync ask "changed since?" (ETag,
 * Last-Modified, the sitemap's lastmod), plus its links, so a crawl can go past a page that
 * answered 304. The index stays the truth: losing this file costs full downloads, not pages.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import * as Schema from "effect/Schema";

const PageRecord = Schema.Struct({
  source: Schema.String,
  hash: Schema.String,
  etag: Schema.optional(Schema.String),
  lastModified: Schema.optional(Schema.String),
  lastmod: Schema.optional(Schema.String),
  links: Schema.optional(Schema.Array(Schema.String)),
});
export type PageRecord = typeof PageRecord.Type;

const SiteState = Schema.Struct({
  version: Schema.Literal(1),
  start: Schema.String,
  pages: Schema.Record(Schema.String, PageRecord),
});
export type SiteState = typeof SiteState.Type;

/** Where a sync keeps its page records between runs. */
export interface SiteStateStore {
  /** The previous sync's records of `start`; undefined when none (or unreadable: a full sync follows). */
  readonly load: (start: string) => SiteState | undefined;
  readonly save: (state: SiteState) => void;
}

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(SiteState));

/** A JSON file, replaced by a rename so a crash never leaves half a file. */
export const fileSiteState = (path: string): SiteStateStore => ({
  load: (start) => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    const state = decode(text);
    return state._tag === "Some" && state.value.start === start ? state.value : undefined;
  },
  save: (state) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(state));
    renameSync(`${path}.tmp`, path);
  },
});

/** No memory between runs: every sync downloads every page (chunks still embed only when changed). */
export const noSiteState: SiteStateStore = { load: () => undefined, save: () => undefined };
