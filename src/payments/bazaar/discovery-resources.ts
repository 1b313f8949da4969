/**
 * `GET /discovery/resources` of the facilitator API (bazaar's optional discovery endpoint): this
 * service's own paid resources, as the official bazaar client (`withBazaar(...).extensions.
 * bazaar.listResources`) reads them: x402Version, items (resource URL, type, accepts, service
 * metadata, the bazaar extension) and pagination, filtered by type, payTo, scheme, network and
 * extension key. A projection of the discovery manifest (v2/discovery.ts): the live 402 stays
 * authoritative. MCP tools share one URL; their bazaar `toolName` tells them apart.
 */
import type { PaymentRequirements } from "@x402/core/types";
import type { DiscoveryManifest } from "../v2/discovery.ts";
import { BAZAAR, type BazaarExtension } from "./bazaar-declaration.ts";
import type { ServiceMetadata } from "./service-metadata.ts";

/** More than any page a client needs; the list is this service's few resources. */
export const MAX_DISCOVERY_LIMIT = 100;

export interface DiscoveryQuery {
  readonly type?: string | undefined;
  readonly payTo?: string | undefined;
  readonly scheme?: string | undefined;
  readonly network?: string | undefined;
  readonly extensions?: string | undefined;
  readonly limit?: string | undefined;
  readonly offset?: string | undefined;
}

const whole = (text: string | undefined, fallback: number, max: number): number => {
  const value = text === undefined || !/^\d{1,9}$/.test(text) ? fallback : Number(text);
  return Math.min(value, max);
};

const matches = (
  accepts: ReadonlyArray<PaymentRequirements>,
  key: "payTo" | "scheme" | "network",
  want?: string,
) => want === undefined || accepts.some((accepted) => accepted[key] === want);

/** The page of `manifest`'s items that `query` asks for, each with its bazaar extension. */
export const discoveryResources = (
  manifest: DiscoveryManifest,
  /** The bazaar extension of each entry the manifest was built from, in its order. */
  declared: ReadonlyArray<BazaarExtension>,
  service: ServiceMetadata,
  query: DiscoveryQuery,
) => {
  const lastUpdated = new Date(manifest.lastUpdated * 1000).toISOString();
  const all = manifest.items
    .map((item, index) => ({
      resource: item.resource.url,
      type: item.type,
      x402Version: 2,
      accepts: [...item.accepts],
      lastUpdated,
      description: item.resource.description,
      mimeType: item.resource.mimeType,
      ...service,
      extensions: declared[index] === undefined ? {} : { [BAZAAR]: declared[index] },
    }))
    .filter(
      (item) =>
        (query.type === undefined || item.type === query.type) &&
        matches(item.accepts, "payTo", query.payTo) &&
        matches(item.accepts, "scheme", query.scheme) &&
        matches(item.accepts, "network", query.network) &&
        (query.extensions === undefined || query.extensions in item.extensions),
    );
  const limit = whole(query.limit, MAX_DISCOVERY_LIMIT, MAX_DISCOVERY_LIMIT);
  const offset = whole(query.offset, 0, Number.MAX_SAFE_INTEGER);
  return {
    x402Version: 2,
    items: all.slice(offset, offset + limit),
    pagination: { limit, offset, total: all.length },
  };
};
