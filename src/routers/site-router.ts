/**
 * A site's routes, the same for every site the service hosts (the default one included): the
 * chat and its payments, status, sessions, payment info, feedback, the owner's console, MCP,
 * llms.txt, discovery and the demo page, over the site's own runtime and settings. What differs
 * from one site to another is data (`SiteFacts`), never a branch. The service's own routes (the
 * facilitator, probes, metrics) are not here: service-router.ts.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { DEFAULT_MCP_TOOL_PRICES } from "../../core/config/config-mcp.ts";
import type { SitesSummary } from "../../core/insights/sites-summary.ts";
import { DEFAULT_UNITS_PER_QUERY } from "../../core/payments/question-price.ts";
import { siteDoor } from "../console/routes/admin-credentials.ts";
import { adminRoutes } from "../console/routes/admin-routes.ts";
import type { AppEnv } from "../hono-kit/app-env.ts";
import { insightsRecorder } from "../hono-kit/insights-recorder.ts";
import { chatDiscoveryEntry } from "../http/chat-discovery.ts";
import { chatDialects } from "../http/chat-payment.ts";
import { chatRoutes } from "../http/routes/chat.ts";
import { didDocumentRoutes } from "../http/routes/did-document.ts";
import { feedbackRoutes } from "../http/routes/feedback-routes.ts";
import { llmsTxtRoutes } from "../http/routes/llms-txt-routes.ts";
import { paymentRoutes } from "../http/routes/payment.ts";
import { paymentInfoRoutes } from "../http/routes/payment-info-routes.ts";
import { sessionRoutes } from "../http/routes/sign-in-routes.ts";
import { statusRoutes } from "../http/routes/status.ts";
import { widgetApiRoutes } from "../http/routes/widget-api.ts";
import { x402DiscoveryRoutes } from "../http/routes/x402-discovery.ts";
import { mcpDiscoveryEntries } from "../mcp/mcp-discovery.ts";
import { mcpRoutes } from "../mcp/mcp-routes.ts";
import { serviceMetadataOf } from "../payments/bazaar/service-metadata.ts";
import { withX402Extensions } from "../payments/v2/x402-extensions.ts";
import type { WalletAccessDeps } from "../sign-in/wallet-access-header.ts";
import { webPageRoutes } from "../web/web-routes.ts";
import { internalError, notFound, routerOptions } from "./router-ends.ts";
import { MAX_BODY_BYTES, type RouterDeps } from "./service-deps.ts";

/** What tells one site from another, besides its runtime and settings. */
export interface SiteFacts {
  readonly id: string;
  /**
   * Where its routes are on the service's own host names: "" for the site served at their root
   * (the default site: its console, cookie and paths as a single-site service always had them),
   * `/sites/<id>` for the others.
   */
  readonly basePath: string;
  readonly title: string | undefined;
  /** The product its docs are about (its prompt names it); llms.txt's title when it has no title. */
  readonly productName?: string | undefined;
  /** SHA-256 of the owner's console token; the operator's ADMIN_TOKEN opens the console too. */
  readonly ownerTokenSha256: string | undefined;
  /** A MAC under a secret every instance of the site holds: the console's session key (admin-credentials.ts). */
  readonly sealSession: (message: string) => string;
  /** Whether a request's Host is one a site's owner controls: ADMIN_TOKEN is refused there (src/sites/owner-hosts.ts). */
  readonly ownerHost: (host: string | undefined) => boolean;
  /** The page at its root for the address it is asked at; absent: the demo page. */
  readonly page?: ((origin: string) => string) | undefined;
  /** What its console shows of every site: given to the site whose console is the operator's. */
  readonly sitesSummary?: SitesSummary | undefined;
}

const tooLarge = {
  success: false,
  error: `Request body too large (at most ${MAX_BODY_BYTES} bytes)`,
  code: "BODY_TOO_LARGE",
};

/** The paid resources of a site under `base`: the chat under /api, the tools under /mcp. */
export const paidEntries = (base: string, config: RouterDeps["config"]) => {
  const unitsPerQuery = config.unitsPerQuery ?? DEFAULT_UNITS_PER_QUERY;
  return [
    chatDiscoveryEntry(`${base}/api/chat`, unitsPerQuery),
    ...mcpDiscoveryEntries(`${base}/mcp`, config.mcpToolPrices ?? DEFAULT_MCP_TOOL_PRICES, unitsPerQuery),
  ];
};

export const siteRouter = (deps: RouterDeps, site: SiteFacts) => {
  const { runtime, config, logger, metrics, web = {}, docsSync, signIn, receiptKey, limiters } = deps;
  const { trustProxy } = config;
  const paidDailyCap = config.ceilings["paid-daily-cap"];
  const mcpToolPrices = config.mcpToolPrices ?? DEFAULT_MCP_TOOL_PRICES;
  // The same price the runtime's PaymentSettings hold (both come from this config, app-layer.ts).
  const unitsPerQuery = config.unitsPerQuery ?? DEFAULT_UNITS_PER_QUERY;
  const entries = paidEntries(site.basePath, config);
  const listed = serviceMetadataOf(config.x402Agents?.service);
  // Every 402 and settlement of x402 v2 carries bazaar, signed offers and receipts.
  const facilitator = withX402Extensions(deps.facilitator, {
    key: receiptKey,
    entries,
    service: listed,
    publicOrigin: config.surface.publicOrigin,
  });
  // The URI a wallet signs names the site's own path.
  const siteSignIn = signIn === undefined ? undefined : { ...signIn, basePath: site.basePath };
  const access: WalletAccessDeps = { runtime, signIn: siteSignIn, signInAttempts: limiters.signInAttempts };
  const door = siteDoor(site.id, site.ownerTokenSha256, config.insights.adminToken, {
    seal: site.sealSession,
    ownerHost: site.ownerHost,
  });
  const recorder = insightsRecorder({ runtime, metrics, enabled: door !== undefined });
  const admin = adminRoutes({
    door,
    // A site at the root keeps the root's console and cookie names.
    site: site.basePath === "" ? undefined : site.id,
    siteTitle: site.title,
    runtime,
    metrics,
    recorder,
    widgetDist: web.widgetDist,
    trustProxy,
    publicOrigin: config.surface.publicOrigin,
    docsSync,
    sitesSummary: site.sitesSummary,
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
    .route("/", widgetApiRoutes(web, { metrics, runtime, now: deps.now }));

  return new Hono<AppEnv>(routerOptions)
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
    .route("/", llmsTxtRoutes(runtime, site.title ?? site.productName))
    .route(
      "/.well-known",
      x402DiscoveryRoutes({ runtime, entries, facilitator, publicOrigin: config.surface.publicOrigin }),
    )
    .route("/.well-known", didDocumentRoutes(receiptKey))
    .route("/admin", admin.console)
    .route("/", webPageRoutes(web, site.page, config.surface.publicOrigin))
    .notFound(notFound)
    .onError(internalError(logger));
};

export type SiteRouter = ReturnType<typeof siteRouter>;
