/**
 * A folder site's first start: with no index yet (no local file, or an empty Chroma
 * collection), its folder is indexed into the index the site's AppConfig names, as the demo
 * docs are (demo-index.ts). A site whose index exists is left alone: re-indexing it is
 * `npm run ingest`'s work, and a start must not re-read every site's docs. The ingest pipeline
 * is imported only when a site needs it.
 */

import { existsSync } from "node:fs";
import * as Effect from "effect/Effect";
import type { AppConfig } from "../../core/config.ts";
import { ChunkIndex } from "../../core/ports/retrieval.ts";
import type { Logger } from "../observability/log.ts";
import { describeIndex, indexLayer, withSettings } from "./adapter-layers.ts";
import { collectGarbage } from "./collect-garbage.ts";

/** Whether the site's index holds anything yet (Chroma: its collection has a chunk). */
const hasIndex = (config: AppConfig): Promise<boolean> =>
  config.vector.kind === "local"
    ? Promise.resolve(existsSync(config.vector.indexPath))
    : Effect.runPromise(
        Effect.flatMap(ChunkIndex, (index) => index.existing).pipe(
          Effect.map((existing) => existing.size > 0),
          Effect.provide(withSettings(config, indexLayer())),
        ),
      );

/** Indexes `folder` into the site's index when it has none; the chunks written, or undefined when it had one. */
export const ensureSiteIndex = async (
  config: AppConfig,
  folder: string,
  logger: Logger,
): Promise<number | undefined> => {
  if (await hasIndex(config)) return undefined;
  const { ingest } = await import("../../adapters/docs-ingest/index.ts");
  const report = await Effect.runPromise(
    ingest([folder], { collection: config.docsSite.collection }).pipe(
      Effect.provide(withSettings(config, indexLayer())),
    ),
  );
  // The index just built is garbage now (it is on disk): 55 sites' at once held 524 MB resident.
  collectGarbage();
  logger.info("a site had no index: indexed its docs folder", {
    folder,
    where: describeIndex(config.vector),
    chunks: report.chunks,
  });
  return report.chunks;
};
