/**
 * The HTTP service: `createApp` wires the routes (a Hono router) behind the edge (request id,
 * identity, CORS, protection limit, access log), around a runtime built once per process. It
 * returns the Hono app itself (so `hc<App>` types a client), whose `fetch` enters through the
 * edge. No Bun- or Deno-specific API here, so both entry points serve the same app.
 */

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getPath } from "hono/utils/url";
import type { AppConfig } from "../core/config.ts";
import { DEFAULT_MCP_TOOL_PRICES } from "../core/config-mcp.ts";
import type { SitesSummary } from "../core/insights/sites-summary.ts";
import { DEFAULT_UNITS_PER_QUERY } from "../core/payments/question-price.ts";
import type { DocsSyncRecord } from "../core/ports/docs-sync.ts";
import { siteDoor, tokenDoor } from "./console/routes/admin-credentials.ts";
import { adminRoutes } from "./console/routes/admin-routes.ts";
import type { AppEnv } from "./hono-kit/app-env.ts";
import { insightsRecorder } from "./hono-kit/insights-recorder.ts";
import { type AppRuntime, Defect } from "./hono-kit/run-effect.ts";
import { chatDiscoveryEntry } from "./http/chat-discovery.ts";
import { chatDialects } from "./http/chat-payment.ts";
import { createEdge } from "./http/edge/edge.ts";
import { hostGuard } from "./http/edge/host-guard.ts";
import type { SiteRouting } from "./http/edge/site-routing.ts";
import { chatRoutes } from "./http/routes/chat.ts";
import { didDocumentRoutes } from "./http/routes/did-document.ts";
import { feedbackRoutes } from "./http/routes/feedback.ts";
import { llmsTxtRoutes } from "./http/routes/llms-txt.ts";
import { opsRoutes } from "./http/routes/ops.ts";
import { paymentRoutes } from "./http/routes/payment.ts";
import { paymentInfoRoutes } from "./http/routes/payment-info.ts";
import { sessionRoutes } from "./http/routes/session.ts";
import { statusRoutes } from "./http/routes/status.ts";
import { type WidgetApiDeps, widgetApiRoutes } from "./http/routes/widget-api.ts";
import { x402DiscoveryRoutes } from "./http/routes/x402-discovery.ts";
import { x402FacilitatorRoutes } from "./http/routes/x402-facilitator.ts";
import { type ServiceLimiters, serviceLimiters } from "./http/service-limiters.ts";
import type { WalletAccessDeps } from "./http/wallet-access.ts";
import { mcpDiscoveryEntries } from "./mcp/mcp-discovery.ts";
import { mcpRoutes } from "./mcp/mcp-routes.ts";
import type { ServiceLogger } from "./observability/log.ts";
import type { Metrics } from "./observability/metrics.ts";
import { serviceMetadataOf } from "./payments/bazaar/service-metadata.ts";
import type { ReceiptKey } from "./payments/offer-receipt/receipt-key.ts";
import type { SignInSettings } from "./payments/sign-in/wallet-sign-in.ts";
import type { ExactFacilitator } from "./payments/v2/exact-payment.ts";
import { withX402Extensions } from "./payments/v2/x402-extensions.ts";
import { siteDemoPage } from "./web/site-demo-page.ts";
import { type WebDeps, webPageRoutes } from "./web/web-routes.ts";

export const MAX_BODY_BYTES = 16 * 1024;

export interface AppDeps {
  readonly runtime: AppRuntime;
  readonly config: Pick<
    AppConfig,
    "host" | "allowedOrigins" | "trustProxy" | "protectionRps" | "paidDailyCap" | "insights" | "surface"
  > &
    Partial<Pick<AppConfig, "x402" | "mcpToolPrices" | "x402Agents" | "unitsPerQuery">>;
  readonly logger: ServiceLogger;
  readonly metrics: Metrics;
  /** The demo page and widget bundles (src/web/), the RPC relay and demo faucet (widget-api.ts). */
  readonly web?: WebDeps & WidgetApiDeps;
  /** The x402 v2 facilitator (fee payer, network); absent: /api/chat offers only the spec's dialect. */
  readonly facilitator?: ExactFacilitator | undefined;
  /** The background sync of DOCS_URL (its last record); absent: no site is synced. */
  readonly docsSync?: { readonly last: () => Promise<DocsSyncRecord | undefined> } | undefined;
  /** The wall clock of the edge's limits and caches (tests pass their own); default Date.now. */
  readonly now?: () => number;
  /** Where wallet sign-ins are bound (public origin, chain); absent: signing in is not offered. */
  readonly signIn?: SignInSettings | undefined;
  /** Signs x402 offers and receipts (X402_RECEIPT_SIGNING_KEY); absent: nothing is signed. */
  readonly receiptKey?: ReceiptKey | undefined;
  /** The sites hosted beside the default one (src/sites/); absent: this service answers for one site. */
  readonly sites?: SiteRouting | undefined;
  /** What the operator's console shows of each hosted site (src/sites/site-summary.ts). */
  readonly sitesSummary?: SitesSummary | undefined;
  /**
   * The service's limits, one set for the default site and every hosted one (service-limiters.ts);
   * absent: fresh ones, for this app alone.
   */
  readonly limiters?: ServiceLimiters | undefined;
}

/** A hosted site's routes: what differs from the default site's (src/sites/site-routes.ts). */
export interface HostedRoutes {
  readonly id: string;
  /** Where its routes are mounted on the service's own host names: `/sites/<id>`. */
  readonly basePath: string;
  readonly title: string | undefined;
  /** The product its docs are about (its prompt names it); llms.txt's title when it has no title. */
  readonly productName?: string | undefined;
  /** SHA-256 of the owner's console token; the operator's ADMIN_TOKEN opens the console too. */
  readonly ownerTokenSha256: string | undefined;
  /** A MAC under the site's store secret (its RequestSeal): the console's session key (admin-credentials.ts). */
  readonly sealSession: (message: string) => string;
  /** Whether a request's Host is one the site's owner controls: ADMIN_TOKEN is refused there (src/sites/owner-hosts.ts). */
  readonly ownerHost: (host: string | undefined) => boolean;
}

/** The address a request came from, as the entry point (Bun, Deno) or a test knows it. */
export interface Peer {
  readonly remoteAddress?: string | undefined;
}

const tooLarge = {
  success: false,
  error: `Request body too large (at most ${MAX_BODY_BYTES} bytes)`,
  code: "BODY_TOO_LARGE",
};

/**
 * The routes, as Hono sees them; every request reaches them through the edge. A hosted site's
 * (`hosted`) are the same routes over its own runtime and settings (its /readyz checks its own
 * store and index; /metrics is the process's, behind METRICS_TOKEN), without the facilitator's
 * endpoints, which are the service's and only the default site serves.
 */
export const createRouter = (
  {
    runtime,
    config,
    logger,
    metrics,
    web = {},
    facilitator: bareFacilitator,
    docsSync,
    now,
    signIn,
    receiptKey,
    sitesSummary,
    limiters = serviceLimiters(config.surface, now),
  }: Omit<AppDeps, "sites">,
  hosted?: HostedRoutes,
) => {
  const { paidDailyCap, trustProxy } = config;
  const mcpToolPrices = config.mcpToolPrices ?? DEFAULT_MCP_TOOL_PRICES;
  const base = hosted?.basePath ?? "";
  // The same price the runtime's PaymentSettings hold (both come from this config, app-layer.ts).
  const unitsPerQuery = config.unitsPerQuery ?? DEFAULT_UNITS_PER_QUERY;
  // The paid resources mounted here (the chat under /api, the tools under /mcp), and only those.
  const entries = [
    chatDiscoveryEntry(`${base}/api/chat`, unitsPerQuery),
    ...mcpDiscoveryEntries(`${base}/mcp`, mcpToolPrices, unitsPerQuery),
  ];
  const listed = serviceMetadataOf(config.x402Agents?.service);
  // Every 402 and settlement of x402 v2 carries bazaar, signed offers and receipts.
  const facilitator = withX402Extensions(bareFacilitator, {
    key: receiptKey,
    entries,
    service: listed,
    publicOrigin: config.surface.publicOrigin,
  });
  const access: WalletAccessDeps = {
    runtime,
    signIn,
    signInAttempts: limiters.signInAttempts,
  };
  const token = config.insights.adminToken;
  const door =
    hosted === undefined
      ? token === undefined
        ? undefined
        : tokenDoor(token)
      : siteDoor(hosted.id, hosted.ownerTokenSha256, token, {
          seal: hosted.sealSession,
          ownerHost: hosted.ownerHost,
        });
  const recorder = insightsRecorder({ runtime, metrics, enabled: door !== undefined });
  const admin = adminRoutes({
    door,
    site: hosted?.id,
    siteTitle: hosted?.title,
    runtime,
    metrics,
    recorder,
    widgetDist: web.widgetDist,
    trustProxy,
    publicOrigin: config.surface.publicOrigin,
    docsSync,
    // Only the operator's console sees every site; a site's own console sees itself.
    sitesSummary: hosted === undefined ? sitesSummary : undefined,
    lockout: limiters.consoleLockout,
  });
  const api = new Hono<AppEnv>()
    // Only requests that carry a body pay for the size check.
    .on(
      ["POST", "PUT", "PATCH"],
      "*",
      bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(tooLarge, 413) }),
    )
    .route("/chat", chatRoutes({ runtime, metrics, paidDailyCap, recorder, facilitator, access }))
    .route("/status", statusRoutes(runtime, paidDailyCap))
    .route("/session", sessionRoutes(access, paidDailyCap))
    .route("/payment/info", paymentInfoRoutes(runtime, paidDailyCap))
    .route("/payment", paymentRoutes(runtime, metrics, paidDailyCap, recorder))
    .route("/feedback", feedbackRoutes(runtime, metrics, recorder))
    .route("/admin", admin.api)
    .route("/", widgetApiRoutes(web, { metrics, budget: limiters.relayBudget }));

  // The edge has decoded the path already: the router takes it from the edge's facts.
  const facilitatorToken = config.x402?.facilitatorToken;
  const router = new Hono<AppEnv>({
    getPath: (request, options) => (options?.env as AppEnv["Bindings"] | undefined)?.path ?? getPath(request),
  });
  if (hosted === undefined && facilitator !== undefined && facilitatorToken !== undefined)
    router.route(
      "/x402",
      x402FacilitatorRoutes({
        facilitator,
        token: facilitatorToken,
        runtime,
        metrics,
        terms: { payTo: config.x402?.facilitatorPayTo, minUnits: config.x402?.facilitatorMinUnits },
        discovery: { entries, service: listed, publicOrigin: config.surface.publicOrigin },
      }),
    );
  return router
    .route("/api", api)
    .route(
      "/mcp",
      mcpRoutes({
        runtime,
        facilitator,
        dialects: chatDialects(facilitator, metrics),
        recorder,
        prices: mcpToolPrices,
        unitsPerQuery,
        access,
      }),
    )
    .route(
      "/",
      opsRoutes({
        runtime,
        metrics,
        metricsToken: config.surface.metricsToken,
        sponsor: facilitator?.sponsor,
        docsSync,
        ...(now ? { now } : {}),
        metricsLockout: limiters.metricsLockout,
        chainReadiness: limiters.chainReadiness,
      }),
    )
    .route("/", llmsTxtRoutes(runtime, hosted?.title ?? hosted?.productName))
    .route(
      "/.well-known",
      x402DiscoveryRoutes({
        runtime,
        entries,
        facilitator,
        publicOrigin: config.surface.publicOrigin,
      }),
    )
    .route("/.well-known", didDocumentRoutes(receiptKey))
    .route("/admin", admin.console)
    .route(
      "/",
      webPageRoutes(
        web,
        hosted === undefined ? undefined : (origin) => siteDemoPage(hosted.id, hosted.title, origin),
        config.surface.publicOrigin,
      ),
    )
    .notFound((c) =>
      c.json({ success: false, error: `Not found: ${c.req.method} ${c.req.path}`, code: "NOT_FOUND" }, 404),
    )
    .onError((error, c) => {
      const cause = error instanceof Defect ? error.detail : (error.stack ?? String(error));
      (c.env?.log ?? logger).error("unhandled error", { cause });
      return c.json(
        {
          success: false,
          error: "Internal server error",
          code: "INTERNAL_ERROR",
          requestId: c.env?.requestId,
        },
        500,
      );
    });
};

export const createApp = (deps: AppDeps) => {
  const limiters = deps.limiters ?? serviceLimiters(deps.config.surface, deps.now);
  const router = createRouter({ ...deps, limiters });
  const dispatch = router.fetch;
  const edge = createEdge({
    routePaths: router.routes.map((route) => route.path),
    dispatch: (request, facts) => dispatch(request, facts),
    logger: deps.logger,
    metrics: deps.metrics,
    trustProxy: deps.config.trustProxy,
    allowedOrigins: deps.config.allowedOrigins,
    hostGuard: hostGuard({
      bindHost: deps.config.host,
      publicOrigin: deps.config.surface.publicOrigin,
      allowedHosts: deps.config.surface.allowedHosts,
      allowedOrigins: deps.config.allowedOrigins,
      sites: deps.sites,
    }),
    sites: deps.sites,
    protectionRps: deps.config.protectionRps,
    maxBodyBytes: MAX_BODY_BYTES,
    bodyDeadlineMs: deps.config.surface.bodyDeadlineMs,
    maxInFlightPerClient: deps.config.surface.maxInFlightPerClient,
    ...(deps.now === undefined ? {} : { now: deps.now }),
  });
  // Every request, from a server or from `app.request(path, init, peer)` in a test, enters
  // through the edge; the second argument is the peer, not Hono bindings.
  router.fetch = (request, peer?: Peer | object) =>
    edge(request, peer !== undefined && "remoteAddress" in peer ? peer.remoteAddress : undefined);
  return router;
};

export type App = ReturnType<typeof createApp>;
