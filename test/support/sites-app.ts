/**
 * A service hosting sites, in this process: the default site and hosted sites built from
 * definitions exactly as the service builds them (src/sites/), each site's docs folder ingested
 * into its own local index, real retrieval and extractive answers, the memory store or one
 * shared Redis. Two apps built on one Redis are two instances of one deployment.
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import { ingest } from "../../adapters/docs-ingest/index.ts";
import type { CeilingLimits } from "../../core/ceilings/ceilings.ts";
import type { AppConfig } from "../../core/config/config.ts";
import { DEFAULT_MCP_TOOL_PRICES } from "../../core/config/config-mcp.ts";
import type { RedisTarget } from "../../core/config/config-redis.ts";
import type { SiteDefinition } from "../../core/config/config-site.ts";
import type { ChainReader } from "../../core/ports/chain-reader.ts";
import { TransferAttribution } from "../../core/ports/transfer-attribution.ts";
import { createApp } from "../../src/app.ts";
import { serviceDocsSync } from "../../src/docs-sync/docs-sync-loop.ts";
import { serviceLimiters } from "../../src/http/service-limiters.ts";
import { memoryLogger } from "../../src/observability/log.ts";
import { makeMetrics } from "../../src/observability/metrics.ts";
import type { ExactFacilitator } from "../../src/payments/v2/exact-payment.ts";
import { indexLayer, withSettings } from "../../src/runtime/adapter-layers.ts";
import { type AppEvents, appLayer, defaultConfig } from "../../src/runtime/app-layer.ts";
import { signInSettings } from "../../src/sign-in/sign-in-settings.ts";
import { hostedSites } from "../../src/sites/hosted-sites.ts";
import { defaultSiteAttribution, siteAttribution } from "../../src/sites/site-attribution.ts";
import { siteAppConfig } from "../../src/sites/site-config.ts";
import { siteFreeQuestions } from "../../src/sites/site-free-questions.ts";
import { sharedServicesOf } from "../../src/sites/site-store.ts";
import { sitesSummary } from "../../src/sites/site-summary.ts";
import { USDC_MINT, WALLET } from "./parsed-tx.ts";

/** A site definition with the defaults a sites file would give, and `fields` over them. */
export const siteDefinition = (id: string, fields: Partial<SiteDefinition> = {}): SiteDefinition => ({
  id,
  docs: { kind: "folder", path: `./${id}` },
  origins: [],
  hosts: [],
  title: undefined,
  unitsPerQuery: 1000n,
  freeQueries: 3,
  wallet: undefined,
  ownerTokenSha256: undefined,
  mcpToolPrices: DEFAULT_MCP_TOOL_PRICES,
  llm: true,
  productName: undefined,
  ...fields,
});

/** Writes `pages` (file name -> Markdown) into a fresh folder and returns it. */
export const docsFolder = (pages: Readonly<Record<string, string>>): string => {
  const folder = mkdtempSync(join(tmpdir(), "site-docs-"));
  for (const [name, text] of Object.entries(pages)) writeFileSync(join(folder, name), text);
  return folder;
};

/** Ingests `folder` into the index `config` names. */
export const ingestInto = (config: AppConfig, folder: string, collection: string) =>
  Effect.runPromise(
    ingest([folder], { collection }).pipe(
      Effect.provide(withSettings(config, indexLayer({ rebuild: true }))),
    ),
  );

export interface SitesAppOptions {
  /** The hosted sites, each with the folder its docs are in. */
  readonly sites: ReadonlyArray<{ readonly definition: SiteDefinition; readonly folder: string }>;
  /** The default site's docs folder. */
  readonly defaultDocs: string;
  /** Where indexes go (one per app group: two instances share it). */
  readonly dataDir?: string;
  readonly redisUrl?: string;
  /** Another Redis than by URL (a cluster: test/support/redis-cluster.ts); over `redisUrl`. */
  readonly redis?: RedisTarget;
  readonly chain?: {
    readonly layer: Layer.Layer<ChainReader, unknown>;
    readonly wallet: string;
    readonly usdcMint: string;
  };
  readonly adminToken?: string;
  /** The x402 v2 facilitator every site settles through (test/support/x402-v2.ts); absent: no v2 offers. */
  readonly facilitator?: ExactFacilitator;
  /** How long a replaced or removed site's runtime keeps serving (default RETIRE_AFTER_MS). */
  readonly retireAfterMs?: number;
  /** How often each site's reconciler looks at its pending settlements (default RECONCILE_EVERY_MS). */
  readonly reconcileEveryMs?: number;
  /** The service's language model (e.g. test/support/fake-groq.ts); default: extractive answers. */
  readonly llm?: AppConfig["llm"];
  /**
   * The chain's JSON-RPC endpoint: the default chain reader's (unless `chain` is given) and every
   * site's RPC relay (/api/solana-rpc, served only when this is given).
   */
  readonly rpcUrl?: string;
  /** Settings over the service's surface (METRICS_TOKEN, the relay's budget). */
  readonly surface?: Partial<AppConfig["surface"]>;
  readonly protectionRps?: number;
  /** The clock of the edge's limits and caches. */
  readonly now?: () => number;
  /** Ceilings over their defaults (core/ceilings/ceilings.ts). */
  readonly ceilings?: Partial<CeilingLimits>;
}

export const buildSitesApp = async (options: SitesAppOptions) => {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "sites-app-"));
  const base = defaultConfig({
    vector: { kind: "local", indexPath: join(dataDir, "index.bin") },
    redis:
      options.redis ??
      (options.redisUrl === undefined ? undefined : { kind: "url", url: Redacted.make(options.redisUrl) }),
    freeQueries: 3,
    llm: options.llm,
  });
  const config: AppConfig = {
    ...base,
    ceilings: {
      ...base.ceilings,
      ...(options.protectionRps === undefined ? {} : { "protection-limit": options.protectionRps }),
      ...options.ceilings,
    },
    surface: { ...base.surface, ...options.surface },
    insights: {
      ...base.insights,
      adminToken: options.adminToken === undefined ? undefined : Redacted.make(options.adminToken),
    },
  };
  mkdirSync(dataDir, { recursive: true });
  await ingestInto(config, options.defaultDocs, "default");
  // As the collection the service writes a folder site's docs as (its folder's name), so that
  // opening a site whose docs are this folder finds its index current instead of adding a copy.
  for (const { definition, folder } of options.sites)
    await ingestInto(siteAppConfig(config, definition), folder, basename(folder));
  const chain = {
    network: "devnet" as const,
    usdcMint: options.chain?.usdcMint ?? USDC_MINT,
    wallet: options.chain?.wallet ?? WALLET,
    rpcUrl: options.rpcUrl ?? "http://127.0.0.1:9/unused",
    walletSecretKey: undefined,
  };
  const { logger, lines } = memoryLogger();
  // The service's attribution of transfers, the root site's part given once its runtime is built (as service-layers.ts does).
  const transfers = siteAttribution();
  // The service's one docs sync loop, as service-layers.ts makes it.
  const docsSync = serviceDocsSync(logger);
  const attribution = Layer.succeed(TransferAttribution)(transfers.service);
  // The largest free questions of every site, read by the default site's runtime and the hosted ones (as service-layers.ts does).
  const freeQuestions = siteFreeQuestions(config.freeQueries);
  const sitesFree = freeQuestions;
  const metrics = makeMetrics();
  // Refusals by ceilings reach /metrics as boot.ts wires them.
  const events: AppEvents = {
    onCeilingRefused: (ceiling) => metrics.count("ceiling_refusals_total", { ceiling }),
  };
  const runtime = ManagedRuntime.make(
    appLayer(
      config,
      chain,
      logger,
      options.chain === undefined
        ? { attribution, sitesFree }
        : { chain: options.chain.layer, attribution, sitesFree },
      events,
    ).pipe(Layer.orDie),
  );
  transfers.root(defaultSiteAttribution(await runtime.context()));
  const signIn = signInSettings(
    { port: 80, surface: { ...config.surface, publicOrigin: "http://localhost" } },
    chain.network,
    undefined,
  );
  // One set of the service's limits for the default site and every hosted one, as boot.ts makes.
  const limiters = serviceLimiters(options.now);
  const clock = options.now === undefined ? {} : { now: options.now };
  const sites = hostedSites({
    ...(options.retireAfterMs === undefined ? {} : { retireAfterMs: options.retireAfterMs }),
    ...(options.reconcileEveryMs === undefined ? {} : { reconcileEveryMs: options.reconcileEveryMs }),
    base: config,
    chain,
    transfers,
    freeQuestions,
    docsSync,
    logger,
    metrics,
    events,
    facilitator: options.facilitator,
    signIn,
    receiptKey: undefined,
    relayRpcUrl: chain.rpcUrl,
    limiters,
    ...clock,
    shared: await sharedServicesOf(runtime),
    web: {},
  });
  await sites.apply({ sites: options.sites.map(({ definition }) => definition) });
  const app = createApp({
    runtime,
    config,
    logger,
    metrics,
    signIn,
    limiters,
    ...clock,
    ...(options.rpcUrl === undefined
      ? {}
      : { web: { relay: { rpcUrl: options.rpcUrl, wallet: chain.wallet, usdcMint: chain.usdcMint } } }),
    sites: sites.routing,
    ...(options.facilitator === undefined ? {} : { facilitator: options.facilitator }),
    sitesSummary: sitesSummary(sites, chain.wallet),
  });
  const call = (path: string, init: RequestInit = {}, from = "203.0.113.7") =>
    app.request(path, init, { remoteAddress: from });
  const ask = (path: string, message: string, from?: string, headers: Record<string, string> = {}) =>
    call(
      path,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ message }),
      },
      from,
    );
  return {
    app,
    /** The default site's runtime. */
    runtime,
    sites,
    lines,
    dataDir,
    call,
    ask,
    dispose: async () => {
      await sites.stop();
      await docsSync.stop();
      await runtime.dispose();
    },
  };
};

export type SitesService = Awaited<ReturnType<typeof buildSitesApp>>;
type Instances = () => Promise<readonly [SitesService, SitesService]>;

/**
 * The instances a test of hosted sites talks to, by store: one app on memory (the same instance
 * twice), and, when a redis-server is at hand, two apps on one Redis (a fresh database each
 * time) sharing one data folder, as two instances of one deployment.
 */
export const sitesInstances = (
  redis: { readonly redis: { readonly url: string } } | undefined,
  optionsFor: (redisUrl?: string) => SitesAppOptions,
): ReadonlyArray<readonly [string, Instances]> => {
  let databases = 0;
  const memory: Instances = async () => {
    const one = await buildSitesApp(optionsFor());
    return [one, one] as const;
  };
  const onRedis: Instances = async () => {
    const url = `${redis?.redis.url}/${++databases}`;
    const first = await buildSitesApp(optionsFor(url));
    const second = await buildSitesApp({ ...optionsFor(url), dataDir: first.dataDir });
    return [first, second] as const;
  };
  return redis === undefined
    ? [["memory", memory]]
    : [
        ["memory", memory],
        ["redis, two instances", onRedis],
      ];
};

/** Opens the instances before a block's tests (handing them to `use`) and disposes them after. */
export const useInstances = (open: Instances, use: (one: SitesService, two: SitesService) => void) => {
  let opened: readonly [SitesService, SitesService] | undefined;
  beforeAll(async () => {
    opened = await open();
    use(...opened);
  });
  afterAll(async () => {
    const [one, two] = opened ?? [];
    await one?.dispose();
    if (two !== one) await two?.dispose();
  });
};
