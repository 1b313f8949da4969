/**
 * A site's retrieval for the sites' index manager (src/sites/site-indexes.ts): the configured
 * Retriever (local file or Chroma collection, from the site's AppConfig) over its Embedder,
 * reporting each loaded index's size so the manager can keep the total under SITES_MEMORY_MB.
 */
import type { AppConfig } from "../../core/config/config.ts";
import type { Logger } from "../observability/log.ts";
import type { SiteRetrieval } from "../sites/site-indexes.ts";
import { describeIndex, retrievalLayerWith, withSettings } from "./adapter-layers.ts";

/** The retrieval of the site `config` describes; a re-index that cannot be loaded is logged. */
export const siteRetrieval =
  (config: AppConfig, logger?: Logger): SiteRetrieval =>
  (onSize) =>
    withSettings(
      config,
      retrievalLayerWith({
        onLoad: ({ bytes, chunks }) => onSize({ bytes, chunks }),
        onReloadFailed: (message) =>
          logger?.warn("a new index could not be loaded; still serving the previous one", {
            where: describeIndex(config.vector),
            message,
          }),
      }),
    );
