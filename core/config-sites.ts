// PLACEHOLDER: replaced by the sitecfg branch at merge.
import type { McpToolPrices } from "./config-mcp.ts";
export const SITE_ID = /^[a-z0-9-]{1,40}$/;
export interface SiteDefinition {
  readonly id: string;
  readonly docs:
    | { readonly kind: "url"; readonly url: string }
    | { readonly kind: "folder"; readonly path: string };
  readonly origins: ReadonlyArray<string>;
  readonly hosts: ReadonlyArray<string>;
  readonly title: string | undefined;
  readonly unitsPerQuery: bigint;
  readonly freeQueries: number;
  readonly wallet: string | undefined;
  readonly ownerTokenSha256: string | undefined;
  readonly mcpToolPrices: McpToolPrices;
  readonly llm: boolean;
  readonly productName: string | undefined;
}
export interface SitesSet {
  readonly sites: ReadonlyArray<SiteDefinition>;
}
