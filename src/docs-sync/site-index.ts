/**
 * A folder site's index, written from its folder into the index the site's AppConfig names, as
 * the demo docs are (demo-index.ts): the ingest embeds only new and changed chunks and removes
 * gone ones, so indexing a folder again costs its changed pages. When a site is indexed again
 * is folder-docs.ts's rule; `ensureSiteIndex` is the first indexing alone (benches, tests). The
 * ingest pipeline is imported only when a site needs it.
 */

import { existsSync } from "node:fs";
import * as Effect from "effect/Effect";
import type { IngestReport } from "../../adapters/docs-ingest/index.ts";
import type { AppConfig } from "../../core/config/config.ts";
import { ChunkIndex } from "../../core/ports/retrieval.ts";
import type { Logger } from "../observability/log.ts";
import { describeIndex, indexLayer, withSettings } from "../runtime/adapter-layers.ts";
import { collectGarbage } from "../runtime/collect-garbage.ts";
import { folderStamp, writeStamp } from "./folder-stamp.ts";

/** Whether the site's index holds anything yet (Chroma: its collection has a chunk). */
export const hasIndex = (config: AppConfig): Promise<boolean> =>
  config.vector.kind === "local"
    ? Promise.resolve(existsSync(config.vector.indexPath))
    : Effect.runPromise(
        Effect.flatMap(ChunkIndex, (index) => index.existing).pipe(
          Effect.map((existing) => existing.size > 0),
          Effect.provide(withSettings(config, indexLayer())),
        ),
      );

/**
 * Brings the site's index in line with `folder`; each source links to `baseUrl` + its page and
 * heading when given. Rejects with the ingest's message (a folder gone or empty, a bad page).
 */
export const indexFolder = async (
  config: AppConfig,
  folder: string,
  options: { readonly baseUrl?: string | undefined; readonly signal?: AbortSignal | undefined } = {},
): Promise<IngestReport> => {
  const { ingest } = await import("../../adapters/docs-ingest/index.ts");
  const report = await Effect.runPromise(
    ingest([folder], { collection: config.docsSite.collection, baseUrl: options.baseUrl }).pipe(
      Effect.provide(withSettings(config, indexLayer())),
    ),
    { signal: options.signal },
  );
  // The index just built is garbage now (it is on disk): 55 sites' at once held 524 MB resident.
  collectGarbage();
  return report;
};

/**
 * Indexes `folder` (a site without baseUrl) into the site's index when it has none, recording
 * its stamp so the service's opening finds it current; the chunks written, or undefined when it
 * had one.
 */
export const ensureSiteIndex = async (
  config: AppConfig,
  folder: string,
  logger: Logger,
): Promise<number | undefined> => {
  if (await hasIndex(config)) return undefined;
  // Taken before reading: a page changed during the ingest makes the next look index it again.
  const stamp = folderStamp({ config, folder, baseUrl: undefined });
  const report = await indexFolder(config, folder);
  writeStamp(config, stamp);
  logger.info("a site had no index: indexed its docs folder", {
    folder,
    where: describeIndex(config.vector),
    chunks: report.chunks,
  });
  return report.chunks;
};
