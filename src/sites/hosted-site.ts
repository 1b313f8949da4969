/**
 * One hosted site, ready to serve: its settings (the service's, with what the sites file sets
 * for it), its runtime (its store, index, answers and payment terms: its wallet and price), and
 * its routes, every site's routes (src/routers/site-router.ts) built over them. The edge sends it
 * the requests under `/sites/<id>/` (as the paths after it) and those on its own host names.
 */
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import type { AppConfig, ChainConfig } from "../../core/config/config.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import { TransferAttribution } from "../../core/ports/transfer-attribution.ts";
import type { AppRuntime } from "../hono-kit/run-effect.ts";
import type { ServiceLimiters } from "../http/service-limiters.ts";
import type { Logger, ServiceLogger } from "../observability/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { ReceiptKey } from "../payments/offer-receipt/receipt-key.ts";
import type { ExactFacilitator } from "../payments/v2/exact-payment.ts";
import { type AppEvents, type AppParts, appLayer } from "../runtime/app-layer.ts";
import type { SignInSettings } from "../sign-in/wallet-sign-in.ts";
import { type SiteStore, siteKeyPrefix } from "./site-store.ts";

/** What every hosted site shares with the default site. */
export interface ServiceParts {
  readonly base: AppConfig;
  readonly chain: ChainConfig;
  readonly logger: ServiceLogger;
  readonly metrics: Metrics;
  readonly events: AppEvents;
  readonly facilitator: ExactFacilitator | undefined;
  readonly signIn: SignInSettings | undefined;
  readonly receiptKey: ReceiptKey | undefined;
  readonly relayRpcUrl: string;
  /** The service's limits, the default site's too: a site never makes its own (service-limiters.ts). */
  readonly limiters: ServiceLimiters;
  /** Whose a transfer is among the service's sites (site-attribution.ts); absent: the site's own seal and list. */
  readonly attribution?: TransferAttribution["Service"];
  /** The site's retriever (an index loaded on first use, dropped past the memory budget); default: loaded now. */
  readonly retrievalOf?: (site: SiteDefinition, config: AppConfig) => AppParts["retrieval"];
  /** The largest free questions of the service's sites and their sum, as of the last reload (site-free-questions.ts). */
  readonly sitesFree?: { readonly largest: () => number; readonly total: () => number };
}

export interface SiteRuntime {
  readonly definition: SiteDefinition;
  readonly config: AppConfig;
  readonly runtime: AppRuntime;
}

/** The runtime of `site` over its store, with the site's settings. */
export const siteRuntime = (
  definition: SiteDefinition,
  config: AppConfig,
  chain: ChainConfig,
  store: SiteStore,
  parts: ServiceParts,
  logger: Logger = parts.logger,
): SiteRuntime => {
  const retrieval = parts.retrievalOf?.(definition, config);
  const runtime = ManagedRuntime.make(
    appLayer(
      config,
      chain,
      logger,
      {
        store: store.layer,
        chain: store.chain,
        site: definition.id,
        keyPrefix: siteKeyPrefix(definition.id),
        ledgerStart: store.openedAt,
        ...(parts.attribution === undefined
          ? {}
          : { attribution: Layer.succeed(TransferAttribution)(parts.attribution) }),
        ...(retrieval === undefined ? {} : { retrieval }),
        ...(parts.sitesFree === undefined ? {} : { sitesFree: parts.sitesFree }),
      },
      parts.events,
    ).pipe(Layer.orDie),
  );
  return { definition, config, runtime };
};
