/** Builds the real app (real middleware, routes, use cases, memory store) on scripted edges. */

import { afterEach } from "bun:test";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import { MemoryStore } from "../../adapters/store-memory/index.ts";
import type { CeilingLimits } from "../../core/ceilings/ceilings.ts";
import type { McpToolPrices } from "../../core/config/config-mcp.ts";
import type { SurfaceConfig } from "../../core/config/config-surface.ts";
import type { X402AgentsConfig } from "../../core/config/config-x402-agents.ts";
import type { ChainLookup, ChainReader, ChainUnavailable } from "../../core/ports/chain-reader.ts";
import type { Generator } from "../../core/ports/generator.ts";
import type { Retriever } from "../../core/ports/retrieval.ts";
import type { TrustProxy } from "../../core/trust-proxy.ts";
import { type AppDeps, createApp } from "../../src/app.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import type { ReceiptKey } from "../../src/payments/offer-receipt/receipt-key.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { type AppParts, appLayer, defaultConfig } from "../../src/runtime/app-layer.ts";
import { signInSettings } from "../../src/sign-in/sign-in-settings.ts";
import { USDC_MINT, WALLET } from "./parsed-tx.ts";
import { makeSwitches, scriptedChain, scriptedGenerator, scriptedRetriever } from "./test-layers.ts";

/** The METRICS_TOKEN of every test app (tests of /metrics without it override `surface`). */
export const METRICS_TOKEN = "test-metrics-token-0123456789";

export interface TestAppOptions {
  readonly freeQueries?: number;
  readonly paidDailyCap?: number;
  readonly trustProxy?: TrustProxy;
  readonly allowedOrigins?: ReadonlyArray<string>;
  readonly protectionRps?: number;
  readonly memoRequired?: boolean;
  /** A real chain reader (e.g. ChainSolana on the local chain) and the mint/wallet it pays to. */
  readonly chain?: {
    readonly layer: Layer.Layer<ChainReader, unknown>;
    readonly usdcMint: string;
    readonly wallet: string;
  };
  /** Another store (e.g. Redis) instead of a fresh memory store. */
  readonly store?: AppParts["store"];
  /** ADMIN_TOKEN: turns on the insights (recording, /admin, /api/admin). */
  readonly adminToken?: string;
  /** INSIGHTS_SALT (default: a random one per app). */
  readonly insightsSalt?: string;
  /** The x402 v2 facilitator: /api/chat then takes PAYMENT-SIGNATURE too. */
  readonly facilitator?: ExactFacilitator;
  /** X402_FACILITATOR_TOKEN (with the switch on): serves /x402/verify, /settle, /supported. */
  readonly facilitatorToken?: string;
  /** X402_FACILITATOR_PAY_TO, X402_FACILITATOR_MIN_AMOUNT (in base units); unset: the defaults. */
  readonly facilitatorPayTo?: ReadonlyArray<string>;
  readonly facilitatorMinUnits?: bigint;
  /** A real retriever (e.g. the local index over ingested fixtures) instead of the scripted one. */
  readonly retrieval?: Layer.Layer<Retriever, unknown>;
  /** A real generator (e.g. Groq on a loopback server) instead of the scripted one. */
  readonly generator?: Layer.Layer<Generator, unknown>;
  /** A JSON-RPC endpoint for the widget's relay (/api/solana-rpc); absent: no relay. */
  readonly relayRpcUrl?: string;
  /** The public surface's settings (PUBLIC_ORIGIN, METRICS_TOKEN, budgets...) over the defaults. */
  readonly surface?: Partial<SurfaceConfig>;
  /** Ceilings over their defaults (core/ceilings/ceilings.ts). */
  readonly ceilings?: Partial<CeilingLimits>;
  /** Questions each MCP tool call takes (MCP_TOOL_PRICES); the defaults otherwise. */
  readonly mcpToolPrices?: McpToolPrices;
  /** The price of a question in base units (PRICE_PER_QUESTION); the default 1000n otherwise. */
  readonly unitsPerQuery?: bigint;
  /** The clock of the edge's limits and caches (default: the real one). */
  readonly now?: () => number;
  /** HOST, the bind address (default 127.0.0.1: the Host and Origin allow-list is on). */
  readonly host?: string;
  /** The docs sync's last record, as the background sync gives it (absent: no DOCS_URL). */
  readonly docsSync?: AppDeps["docsSync"];
  /** X402_RECEIPT_SIGNING_KEY: x402 offers and receipts are signed (absent: not signed). */
  readonly receiptKey?: ReceiptKey;
  /** X402_SERVICE_NAME, _TAGS, _ICON_URL (bazaar) over the defaults. */
  readonly service?: Partial<X402AgentsConfig["service"]>;
}

export const buildTestApp = (options: TestAppOptions = {}) => {
  const switches = makeSwitches();
  const lookups = new Map<string, ChainLookup>();
  const chainFailure: { value: ChainUnavailable | undefined } = { value: undefined };
  const limits = {
    freePerDay: options.freeQueries ?? 3,
    paidDailyCap: options.paidDailyCap ?? 1000,
    holdTtlMs: 120_000,
  };
  const base = defaultConfig({
    freeQueries: limits.freePerDay,
    memoRequired: options.memoRequired ?? false,
    allowedOrigins: options.allowedOrigins ?? [],
    trustProxy: options.trustProxy ?? { kind: "none" },
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.unitsPerQuery === undefined ? {} : { unitsPerQuery: options.unitsPerQuery }),
  });
  const config = {
    ...base,
    insights: {
      ...base.insights,
      adminToken: options.adminToken === undefined ? undefined : Redacted.make(options.adminToken),
      salt: options.insightsSalt === undefined ? undefined : Redacted.make(options.insightsSalt),
    },
    surface: { ...base.surface, metricsToken: Redacted.make(METRICS_TOKEN), ...options.surface },
    ceilings: {
      ...base.ceilings,
      "paid-daily-cap": limits.paidDailyCap,
      "protection-limit": options.protectionRps ?? 100,
      ...options.ceilings,
    },
    ...(options.mcpToolPrices === undefined ? {} : { mcpToolPrices: options.mcpToolPrices }),
    x402Agents: { ...base.x402Agents, service: { ...base.x402Agents.service, ...options.service } },
    x402: {
      ...base.x402,
      facilitatorToken:
        options.facilitatorToken === undefined ? undefined : Redacted.make(options.facilitatorToken),
      facilitatorPayTo: options.facilitatorPayTo ?? base.x402.facilitatorPayTo,
      facilitatorMinUnits: options.facilitatorMinUnits ?? base.x402.facilitatorMinUnits,
    },
  };
  const chain = {
    network: "devnet" as const,
    // The scripted chain's mint and wallet are those of the parsed-transaction builders.
    usdcMint: options.chain?.usdcMint ?? USDC_MINT,
    wallet: options.chain?.wallet ?? WALLET,
    rpcUrl: "http://127.0.0.1:9/unused",
    walletSecretKey: undefined,
  };
  const { logger, lines } = memoryLogger();
  const metrics = makeMetrics();
  const runtime = ManagedRuntime.make(
    appLayer(
      config,
      chain,
      logger,
      {
        store: options.store ?? MemoryStore.layer(limits),
        retrieval: options.retrieval ?? scriptedRetriever(switches),
        generator: options.generator ?? scriptedGenerator(switches),
        chain: options.chain?.layer ?? scriptedChain(lookups, chainFailure),
      },
      // Refusals by ceilings reach /metrics as boot.ts wires them.
      { onCeilingRefused: (ceiling) => metrics.count("ceiling_refusals_total", { ceiling }) },
    ).pipe(Layer.orDie),
  );
  // Built now, as the service builds its layers at start: the memory store's payment ledger
  // starts here, not at the first request (a transfer made in between would look older).
  runtime.runPromise(Effect.void).catch(() => undefined);
  const app = createApp({
    runtime,
    config,
    logger,
    metrics,
    facilitator: options.facilitator,
    docsSync: options.docsSync,
    receiptKey: options.receiptKey,
    // app.request's URLs are http://localhost/...: the origin sign-ins are bound to here.
    signIn: signInSettings(
      {
        port: 80,
        surface: { ...config.surface, publicOrigin: config.surface.publicOrigin ?? "http://localhost" },
      },
      chain.network,
      options.facilitator?.network,
    ),
    ...(options.relayRpcUrl === undefined
      ? {}
      : { web: { relay: { rpcUrl: options.relayRpcUrl, wallet: chain.wallet, usdcMint: chain.usdcMint } } }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  /** Sends a request as if from `from` (the socket address). */
  const call = async (path: string, init: RequestInit = {}, from = "203.0.113.7"): Promise<Response> =>
    app.request(path, init, { remoteAddress: from });
  const chat = (message: unknown, from?: string, extra: Record<string, unknown> = {}) =>
    call(
      "/api/chat",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ message, ...extra }),
      },
      from,
    );
  /** GET /metrics with the test METRICS_TOKEN: the Prometheus text. */
  const metricsText = async (): Promise<string> =>
    (await call("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const pay = (body: unknown, from?: string) =>
    call(
      "/api/payment",
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
      from,
    );
  return {
    app,
    runtime,
    switches,
    lookups,
    chainFailure,
    lines,
    metrics,
    call,
    metricsText,
    chat,
    pay,
    dispose: () => runtime.dispose(),
  };
};

export type TestApp = ReturnType<typeof buildTestApp>;

/**
 * A `build` for a test file or describe block: each app it builds is disposed by the hook
 * (after each test by default; pass `afterAll` for apps built in `beforeAll`), however many a
 * test builds.
 */
export const testApps = (disposeAfter: (hook: () => Promise<unknown>) => void = afterEach) => {
  const apps: TestApp[] = [];
  disposeAfter(() => Promise.all(apps.splice(0).map((t) => t.dispose())));
  return (options?: TestAppOptions): TestApp => {
    const t = buildTestApp(options);
    apps.push(t);
    return t;
  };
};
