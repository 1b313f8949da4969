/**
 * A site of the sites file seen as a service of its own: the service's configuration with the
 * site's settings in place (free questions, widget origins, MCP tool prices, the language model
 * on or off, the docs kept in sync) and its own index, so that everything built from an
 * AppConfig today serves a site unchanged. Its index lives beside the default site's, never in
 * it: `<folder of INDEX_PATH>/sites/<id>/index.bin`, or the Chroma collection `<name>-site-<id>`.
 * Its answer settings: the language model on or off, and the product its prompt names
 * (`productName`); the service name catalogues list (bazaar, x402) is the product's name, else
 * the site's title, when it fits their rules (printable ASCII, 32 characters), else the service's.
 */
import { dirname, join } from "node:path";
import type { AppConfig, ChainConfig, VectorConfig } from "../../core/config/config.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import { isCatalogText } from "../../core/config/config-x402-agents.ts";

const siteVector = (vector: VectorConfig, id: string): VectorConfig =>
  vector.kind === "local"
    ? { kind: "local", indexPath: join(dirname(vector.indexPath), "sites", id, "index.bin") }
    : { ...vector, collection: `${vector.collection}-site-${id}` };

/** The chain with the site's receiving wallet; the service's key is dropped: it is not the site's. */
export const siteChain = (chain: ChainConfig, site: SiteDefinition): ChainConfig =>
  site.wallet === undefined || site.wallet === chain.wallet
    ? chain
    : { ...chain, wallet: site.wallet, walletSecretKey: undefined };

/** The name catalogues list the site under: its product's, else its title, when either fits. */
const serviceNameOf = (base: AppConfig, site: SiteDefinition): string =>
  [site.productName, site.title].find((name) => name !== undefined && isCatalogText(name)) ??
  base.x402Agents.service.serviceName;

/** The service's model, told the site's product name when it has one. */
const llmOf = (base: AppConfig, site: SiteDefinition): AppConfig["llm"] =>
  base.llm === undefined || site.productName === undefined
    ? base.llm
    : { ...base.llm, productName: site.productName };

/** The service's configuration as site `site` uses it. */
export const siteAppConfig = (base: AppConfig, site: SiteDefinition): AppConfig => ({
  ...base,
  freeQueries: site.freeQueries,
  allowedOrigins: site.origins,
  chain: base.chain === undefined ? undefined : siteChain(base.chain, site),
  llm: site.llm ? llmOf(base, site) : undefined,
  x402Agents: {
    ...base.x402Agents,
    service: { ...base.x402Agents.service, serviceName: serviceNameOf(base, site) },
  },
  vector: siteVector(base.vector, site.id),
  // DOCS_LANGUAGE is the default site's; a site names its own, or its docs tell.
  docsLanguage: site.language,
  mcpToolPrices: site.mcpToolPrices,
  unitsPerQuery: site.unitsPerQuery,
  docsSite: {
    ...base.docsSite,
    url: site.docs.kind === "url" ? site.docs.url : undefined,
    // DOCS_COLLECTION names a part of the default site's index; a site's index is its own.
    collection: undefined,
  },
  // A site is no sites file of its own.
  sitesFile: undefined,
});
