/**
 * The stamp of a folder site's docs: what its pages look like from outside (the path, size and
 * modification time of every page the ingest reads, by walk.ts's rules) with the settings that
 * change what its index stores (the baseUrl each source links to, the embedder). Equal stamps:
 * nothing to index again. Reading no page, it costs a walk and a stat a page. The stamp of the
 * last indexing that succeeded is written beside the index, so a start knows what changed while
 * the service was down. The walk is the ingest's own, without its parsers (34 MB and half a
 * second to load under Bun), which load only when a folder changed.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findSourceFiles } from "../../adapters/docs-ingest/walk.ts";
import type { AppConfig } from "../../core/config/config.ts";

/** What a stamp is made of. */
export interface StampedSite {
  /** The site's configuration: its index and embedder. */
  readonly config: AppConfig;
  /** Absolute path of its docs folder. */
  readonly folder: string;
  /** Where its pages are published; undefined: its sources carry no link. */
  readonly baseUrl: string | undefined;
}

/** Bumped when the stamp's recipe changes, so an old stamp never matches a new one by accident. */
const STAMP_RECIPE = 1;

/** The stamp of the site's folder now (see the header). */
export const folderStamp = (site: StampedSite): string => {
  let pages: string;
  try {
    pages = findSourceFiles([site.folder])
      .map((file) => {
        const stat = statSync(file.path);
        return `${file.source}\t${stat.size}\t${stat.mtimeMs}`;
      })
      .join("\n");
  } catch (error) {
    // A folder gone or unreadable, or a page gone mid-look, is a state of its own: indexing it
    // fails with the ingest's reason, logged once, and the next change is looked at again.
    pages = `unreadable: ${String(error)}`;
  }
  return createHash("sha256")
    .update(
      JSON.stringify([
        STAMP_RECIPE,
        site.baseUrl ?? "",
        site.config.embeddingModel ?? "hash",
        pages,
        // A site given its language later is analysed again (unset: as before, detected).
        ...(site.config.docsLanguage === undefined ? [] : [site.config.docsLanguage]),
      ]),
    )
    .digest("hex");
};

/** Where the stamp of the site's last indexing is kept: beside the local index, or under .data with Chroma. */
export const stampPath = (config: AppConfig): string =>
  config.vector.kind === "local"
    ? `${config.vector.indexPath}.folder`
    : join(".data", "sites", `${config.vector.collection}.folder`);

/** The stamp of the last indexing that succeeded; undefined before the first. */
export const writtenStamp = (config: AppConfig): string | undefined => {
  const path = stampPath(config);
  return statSync(path, { throwIfNoEntry: false }) === undefined
    ? undefined
    : readFileSync(path, "utf8").trim();
};

/** Records `stamp` as the last indexing that succeeded. */
export const writeStamp = (config: AppConfig, stamp: string): void => {
  mkdirSync(dirname(stampPath(config)), { recursive: true });
  writeFileSync(stampPath(config), `${stamp}\n`);
};
