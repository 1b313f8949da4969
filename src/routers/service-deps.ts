/** What the routers of the service and of each of its sites are built from. */
import type { AppConfig } from "../../core/config/config.ts";
import type { DocsSyncRecord } from "../../core/ports/docs-sync.ts";
import type { AppRuntime } from "../hono-kit/run-effect.ts";
import type { WidgetApiDeps } from "../http/routes/widget-api.ts";
import type { ServiceLimiters } from "../http/service-limiters.ts";
import type { ServiceLogger } from "../observability/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { ReceiptKey } from "../payments/offer-receipt/receipt-key.ts";
import type { ExactFacilitator } from "../payments/v2/exact-payment.ts";
import type { SignInSettings } from "../sign-in/wallet-sign-in.ts";
import type { WebDeps } from "../web/web-routes.ts";

export const MAX_BODY_BYTES = 16 * 1024;

export interface RouterDeps {
  /** The site's runtime (the service's routers: the default site's, whose store is the service's). */
  readonly runtime: AppRuntime;
  readonly config: Pick<
    AppConfig,
    "host" | "allowedOrigins" | "trustProxy" | "ceilings" | "insights" | "surface"
  > &
    Partial<Pick<AppConfig, "x402" | "mcpToolPrices" | "x402Agents" | "unitsPerQuery">>;
  readonly logger: ServiceLogger;
  readonly metrics: Metrics;
  /** The demo page and widget bundles (src/web/), the RPC relay and demo faucet (widget-api.ts). */
  readonly web?: WebDeps & WidgetApiDeps;
  /** The x402 v2 facilitator (fee payer, network); absent: /api/chat offers only the spec's dialect. */
  readonly facilitator?: ExactFacilitator | undefined;
  /** The site's docs sync (its last record); absent: its docs are not synced from a URL. */
  readonly docsSync?: { readonly last: () => Promise<DocsSyncRecord | undefined> } | undefined;
  /** The wall clock of the edge's limits and caches (tests pass their own); default Date.now. */
  readonly now?: () => number;
  /** Where wallet sign-ins are bound (public origin, chain); absent: signing in is not offered. */
  readonly signIn?: SignInSettings | undefined;
  /** Signs x402 offers and receipts (X402_RECEIPT_SIGNING_KEY); absent: nothing is signed. */
  readonly receiptKey?: ReceiptKey | undefined;
  /** The service's limits, one set for every site (service-limiters.ts). */
  readonly limiters: ServiceLimiters;
}
