// PLACEHOLDER: replaced by the sitecfg branch at merge.
import { dirname, join } from "node:path";
import type { AppConfig, ChainConfig } from "../../core/config.ts";
import type { SiteDefinition } from "../../core/config-sites.ts";
export const siteAppConfig = (base: AppConfig, site: SiteDefinition): AppConfig => ({
  ...base,
  freeQueries: site.freeQueries,
  allowedOrigins: site.origins,
  vector:
    base.vector.kind === "local"
      ? { kind: "local", indexPath: join(dirname(base.vector.indexPath), "sites", site.id, "index.bin") }
      : { ...base.vector, collection: `${base.vector.collection}-site-${site.id}` },
  llm: site.llm ? base.llm : undefined,
  mcpToolPrices: site.mcpToolPrices,
  docsSite: { ...base.docsSite, url: site.docs.kind === "url" ? site.docs.url : undefined },
});
export const siteChain = (chain: ChainConfig, site: SiteDefinition): ChainConfig =>
  site.wallet === undefined ? chain : { ...chain, wallet: site.wallet };
