/**
 * A folder site's index follows its folder, by the folder's stamp (folder-stamp.ts: what its
 * pages look like from outside, and the settings the index is built with).
 *   - At a site's opening, a stamp unlike the one written at its last indexing (pages changed
 *     while the service was down, a new baseUrl) or a missing index means the folder is indexed
 *     again before the site serves. The ingest compares content hashes, so only new and changed
 *     chunks are embedded and gone ones removed: "again" costs the changed pages, and an
 *     unchanged folder costs one look at its files.
 *   - While the service runs, every folder is looked at every FOLDER_POLL_MS. A new stamp is
 *     indexed once it has stayed the same for one more look: an editor saving several files, a
 *     git checkout or a copy in progress gives one re-index, not one per file. The running
 *     retriever then swaps the new index in by itself (the local file's version, Chroma's), so
 *     the change is answered within a few seconds, without a restart.
 *   - No loop: the stamp covers only pages (the index and its stamp are not pages: .data is a
 *     hidden folder, index.bin no page type), and each stamp is indexed once, whether that
 *     succeeds or fails. A failure (the folder gone or emptied, a page unreadable) is one WARN;
 *     the site keeps answering from its last index until its folder changes again.
 *
 * Why a poll and not fs.watch: a recursive fs.watch differs between Bun, Node and Deno on Linux,
 * misses changes on bind mounts from another OS, NFS and SMB, silently stops at the inotify watch
 * limit and loses a folder deleted and made again; a stat of each page works the same everywhere.
 * Its price: 2,000 pages take 16 to 20 ms a look under Bun (walk and stat), one site at a time
 * with the event loop free between sites.
 *
 * One indexing at a time over every folder site (one queue): a site's opening and its poll never
 * write its index at once, and the CPU spent indexing stays that of one site, as with URL sites.
 * Several instances each follow their own folders; with a shared Chroma their ingests write the
 * same chunks (content hashes), so the index ends the same whichever writes last.
 */
import type { Logger } from "../observability/log.ts";
import { folderStamp, type StampedSite, writeStamp, writtenStamp } from "./folder-stamp.ts";
import { hasIndex, indexFolder } from "./site-index.ts";

/** How often each folder is looked at. */
export const FOLDER_POLL_MS = 2_000;

/** A folder site as this module needs it: its index (config), folder and baseUrl, and its logger. */
export interface FolderSite extends StampedSite {
  /** The site's logger (every line names the site). */
  readonly logger: Logger;
}

export interface FolderDocs {
  /**
   * Brings a site's index in line with its folder before the site serves, and follows the
   * folder from then on. Rejects only when the site has no index and its folder cannot be indexed.
   */
  readonly open: (id: string, site: FolderSite) => Promise<void>;
  /** Resolves once the current look at every folder (and what it indexes) is done, for tests. */
  readonly settled: () => Promise<void>;
  /** Stops following (an indexing in flight is interrupted; the last written index stays). */
  readonly stop: () => Promise<void>;
}

/** A site followed: the stamp last indexed (or tried) and one seen once, waiting to settle. */
interface Followed {
  readonly site: FolderSite;
  indexed: string;
  pending: string | undefined;
  /** Seen in `sites()`: from then on, missing from it means the site was removed. */
  listed: boolean;
}

/** Follows the folder sites `sites()` names (read again each look, so a changed sites file takes effect). */
export const startFolderDocs = (
  sites: () => ReadonlyArray<{ readonly id: string; readonly site: FolderSite }>,
  options: { readonly logger: Logger; readonly intervalMs?: number },
): FolderDocs => {
  const followed = new Map<string, Followed>();
  const abort = new AbortController();
  let queue: Promise<unknown> = Promise.resolve();
  let running: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const enqueue = <A>(task: () => Promise<A>): Promise<A> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  /** Indexes the folder as `stamp` saw it; whether that succeeded (a failure is logged here). */
  const reindex = async (site: FolderSite, stamp: string, reason: "opened" | "changed") => {
    const started = performance.now();
    try {
      const report = await indexFolder(site.config, site.folder, {
        baseUrl: site.baseUrl,
        signal: abort.signal,
      });
      writeStamp(site.config, stamp);
      site.logger.info("docs folder indexed", {
        folder: site.folder,
        reason,
        chunks: report.chunks,
        added: report.added,
        updated: report.updated,
        removed: report.removed,
        ms: Math.round(performance.now() - started),
      });
      return true;
    } catch (error) {
      if (!stopped)
        site.logger.warn("docs folder could not be indexed; the site keeps answering from its last index", {
          folder: site.folder,
          problem: error instanceof Error ? error.message : String(error),
        });
      return false;
    }
  };

  const open = (id: string, site: FolderSite) =>
    enqueue(async () => {
      const before = followed.get(id)?.site;
      if (site.baseUrl === undefined && (before === undefined || before.baseUrl !== undefined))
        site.logger.warn("this folder site's sources will not link to its pages: it has no baseUrl", {
          folder: site.folder,
          fix: 'add "baseUrl": "<the URL its pages are published under>" to this site in SITES_FILE',
        });
      const stamp = folderStamp(site);
      const current = stamp === writtenStamp(site.config) && (await hasIndex(site.config));
      if (!current && !(await reindex(site, stamp, "opened")) && !(await hasIndex(site.config)))
        throw new Error(`its docs folder ${site.folder} could not be indexed and it has no index yet`);
      followed.set(id, { site, indexed: stamp, pending: undefined, listed: false });
    });

  /** One look at a followed folder; indexes it when it changed and has settled. */
  const look = async (id: string, site: FolderSite) => {
    const state = followed.get(id);
    // Not opened yet, or opened again with other settings: that opening follows it.
    if (state?.site !== site) return;
    state.listed = true;
    const stamp = folderStamp(site);
    if (stamp === state.indexed) state.pending = undefined;
    else if (stamp !== state.pending) state.pending = stamp;
    else
      await enqueue(async () => {
        if (followed.get(id) !== state) return;
        state.indexed = stamp;
        state.pending = undefined;
        await reindex(site, stamp, "changed");
      });
  };

  const round = async () => {
    const current = sites();
    for (const [id, state] of followed)
      if (state.listed && !current.some((entry) => entry.id === id)) followed.delete(id);
    for (const { id, site } of current) {
      if (stopped) return;
      await look(id, site);
      // Each look is synchronous file system work: requests get the event loop between sites.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };

  const tick = () => {
    running = round()
      .catch((error: unknown) =>
        options.logger.error("docs folders could not be looked at", { cause: String(error) }),
      )
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, options.intervalMs ?? FOLDER_POLL_MS);
        // The poll alone must not keep a process alive (CLIs, tests).
        timer.unref?.();
      });
  };
  timer = setTimeout(tick, options.intervalMs ?? FOLDER_POLL_MS);
  timer.unref?.();

  return {
    open,
    settled: async () => {
      await running;
      await queue;
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      abort.abort();
      await running;
      await queue;
    },
  };
};
