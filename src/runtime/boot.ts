/**
 * What every entry point (Bun, Deno, the demo) does around serving: read config (failing with
 * every problem at once), index the demo docs, start a local chain when nothing is configured
 * and the entry brings one,
 * build the runtime once (so a bad Redis URL fails the start, not the first request), create
 * the app; and the graceful shutdown. Only listening and signals are runtime-specific.
 */
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as ManagedRuntime from "effect/ManagedRuntime";
import * as Redacted from "effect/Redacted";
import * as Result from "effect/Result";
import { ConfigError, type Env, parseConfig } from "../../core/config.ts";
import { createApp } from "../app.ts";
import { runOutcome } from "../hono-kit/run-effect.ts";
import { serviceLimiters } from "../http/service-limiters.ts";
import { makeLogger } from "../observability/log.ts";
import { makeMetrics } from "../observability/metrics.ts";
import { startFacilitator } from "../payments/v2/facilitator.ts";
import { startReconciler } from "../payments/v2/reconciler.ts";
import { type AppEvents, appLayer } from "./app-layer.ts";
import { ensureDemoIndex } from "./demo-index.ts";
import { receiptKeyFor } from "./receipt-key.ts";
import { type LocalChainStarter, resolveChain, warnAboutDefaults } from "./resolve-chain.ts";
import { signInSettings } from "./sign-in-settings.ts";
import { describeStartupFailure } from "./startup-failure.ts";

/** Upper bound on waiting for in-flight requests at shutdown (the answer deadline is 90 s). */
const DRAIN_MS = 25_000;

export interface BootOptions {
  /** A local chain to start when none is configured (the demo's `npm start`); absent: refuse to start. */
  readonly localChain?: LocalChainStarter;
}

export const boot = async (env: Env, exitProcess: (code: number) => never, options: BootOptions = {}) => {
  const logger = makeLogger();
  // Batched access lines reach stdout before the process ends, however it ends short of SIGKILL.
  process.on("exit", () => logger.flush());
  const exit = (code: number): never => {
    logger.flush();
    return exitProcess(code);
  };
  const parsed = parseConfig(env);
  if (Result.isFailure(parsed)) {
    console.error(parsed.failure.message);
    return exit(1);
  }
  const config = parsed.success;
  // A bad sites file is a bad setting: refused with every problem before anything starts.
  const sitesFile = config.sitesFile === undefined ? undefined : await import("./sites-file.ts");
  const sitesAtStart =
    config.sitesFile === undefined || sitesFile === undefined
      ? undefined
      : sitesFile.loadSitesFile(config.sitesFile, env, sitesFile.siteDefaults(config));
  if (sitesAtStart !== undefined && Result.isFailure(sitesAtStart)) {
    console.error(sitesAtStart.failure.message);
    return exit(1);
  }
  warnAboutDefaults(config, logger);
  await ensureDemoIndex(config, logger);
  const started: Array<() => Promise<void>> = [];
  /** Ends a start that cannot go on: one clear ERROR line (no secret), everything started so far stopped, exit 1. */
  const failStart = async (error: unknown): Promise<never> => {
    logger.error("startup failed", { ...describeStartupFailure(error, config) });
    for (const stop of started.reverse()) await stop().catch(() => undefined);
    return exit(1);
  };
  const {
    chain,
    stop: stopChain,
    fundDemoWallet,
    feePayer,
    receiptSeed,
  } = await resolveChain(config, logger, options.localChain).catch(failStart);
  started.push(stopChain);
  const secretKey = config.x402.feePayerSecretKey;
  const metrics = makeMetrics();
  const facilitator = await startFacilitator({
    rpcUrl: chain.rpcUrl,
    feePayer: secretKey === undefined ? feePayer : Redacted.value(secretKey),
    logger,
    policy: { maxFeeLamports: BigInt(config.x402.maxSponsorFeeLamports), mints: [chain.usdcMint] },
    minBalanceLamports: BigInt(config.x402.minSponsorBalanceLamports),
    paymentIdRequired: config.x402.paymentIdRequired,
    lossBudgetLamportsPerHour: config.x402.sponsorLossLamportsPerHour,
    metrics,
  }).catch(async (error: unknown) => {
    // The message names the variable or the RPC, never the key.
    logger.error("x402 v2 facilitator could not start", { cause: String(error) });
    await stopChain();
    return exit(1);
  });
  const cacheCounters = {
    hit: "answer_cache_hits_total",
    miss: "answer_cache_misses_total",
    rescued: "answer_cache_rescues_total",
  } as const;
  const events: AppEvents = {
    onAnswerCache: (outcome) => metrics.count(cacheCounters[outcome]),
    onRpcCall: (method, cause) => metrics.count("chain_rpc_calls_total", { method, cause }),
    onStoreRoundTrip: (command) => metrics.count("store_round_trips_total", { command }),
  };
  const runtime = ManagedRuntime.make(appLayer(config, chain, logger, {}, events).pipe(Layer.orDie));
  started.push(() => runtime.dispose());
  await runtime.runPromise(Effect.void).catch(failStart);
  // The crawler and the ingest (parsers, robots-parser) are loaded only when a site is synced.
  const docsSync =
    config.docsSite.url === undefined
      ? undefined
      : (await import("./docs-sync.ts")).startDocsSync(config, logger);
  started.push(async () => docsSync?.stop());
  // Sponsored settlements left pending are followed to their end (one instance at a time).
  const reconciler =
    facilitator === undefined
      ? undefined
      : startReconciler({
          run: async (effect) => runOutcome(runtime, effect),
          feePayer: facilitator.feePayer,
          logger,
          metrics,
        });
  started.push(async () => reconciler?.stop());
  const signIn = signInSettings(config, chain.network, facilitator?.network);
  const receiptKey = receiptKeyFor(config, receiptSeed);
  // One set of limits for the default site and every hosted one (the RPC plan, the doors' tokens).
  const limiters = serviceLimiters(config.surface);
  // The sites of SITES_FILE, beside the default one (loaded only when the file is set).
  const sites =
    config.sitesFile === undefined
      ? undefined
      : await (await import("../sites/start-sites.ts"))
          .startSites({
            path: config.sitesFile,
            initial: sitesAtStart?.success,
            env,
            runtime,
            base: config,
            chain,
            logger,
            metrics,
            events,
            facilitator,
            signIn,
            receiptKey,
            relayRpcUrl: chain.rpcUrl,
            limiters,
            web: { fundDemoWallet },
          })
          .catch(async (error: unknown) => {
            if (error instanceof ConfigError) {
              console.error(error.message);
              for (const stop of started.reverse()) await stop().catch(() => undefined);
              return exit(1);
            }
            return failStart(error);
          });
  started.push(async () => sites?.stop());
  const app = createApp({
    runtime,
    config,
    logger,
    metrics,
    web: { relay: { rpcUrl: chain.rpcUrl, wallet: chain.wallet, usdcMint: chain.usdcMint }, fundDemoWallet },
    facilitator,
    docsSync,
    signIn,
    receiptKey,
    sites: sites?.routing,
    limiters,
    sitesSummary:
      sites === undefined
        ? undefined
        : (await import("../sites/site-summary.ts")).sitesSummary(sites, chain.wallet),
  });

  /** A once-only signal handler: stop accepting, let in-flight requests finish, close everything. */
  const onSignal = (stopServer: () => Promise<void>) => {
    let stopping = false;
    return async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info("shutting down", { signal });
      await Promise.race([stopServer(), new Promise((resolve) => setTimeout(resolve, DRAIN_MS))]);
      facilitator?.sponsor.stop();
      await reconciler?.stop();
      await sites?.stop();
      await docsSync?.stop();
      await runtime.dispose();
      await stopChain();
      logger.info("stopped");
      exit(0);
    };
  };

  return { app, config, chain, logger, onSignal, failStart };
};
