/**
 * What every entry point (Bun, Deno, the demo) does around serving: read config (failing with
 * every problem at once), index the demo docs, start the service's parts (service-layers.ts: the
 * chain, the facilitator, the root site's runtime, docs sync and reconciler, the hosted sites;
 * a start that fails half way releases what it opened), create the app; and the graceful
 * shutdown. Only listening and signals are runtime-specific.
 */
import * as Result from "effect/Result";
import { ConfigError, type Env, parseConfig } from "../../core/config/config.ts";
import { createApp } from "../app.ts";
import { serviceLimiters } from "../http/service-limiters.ts";
import { makeLogger } from "../observability/log.ts";
import { makeMetrics } from "../observability/metrics.ts";
import type { ExactFacilitator } from "../payments/v2/exact-payment.ts";
import { signInSettings } from "../sign-in/sign-in-settings.ts";
import type { AppEvents } from "./app-layer.ts";
import { ensureDemoIndex } from "./demo-index.ts";
import { receiptKeyFor } from "./receipt-key-source.ts";
import { type LocalChainStarter, type ResolvedChain, warnAboutDefaults } from "./resolve-chain.ts";
import { startService } from "./service-layers.ts";
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
  const sitesFile = config.sitesFile === undefined ? undefined : await import("../sites/sites-file.ts");
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
  const metrics = makeMetrics();
  const cacheCounters = {
    hit: "answer_cache_hits_total",
    miss: "answer_cache_misses_total",
    rescued: "answer_cache_rescues_total",
  } as const;
  const events: AppEvents = {
    onAnswerCache: (outcome) => metrics.count(cacheCounters[outcome]),
    onRpcCall: (method, cause) => metrics.count("chain_rpc_calls_total", { method, cause }),
    onStoreRoundTrip: (command) => metrics.count("store_round_trips_total", { command }),
    onCeilingRefused: (ceiling) => metrics.count("ceiling_refusals_total", { ceiling }),
  };
  // One set of limits for every site (the RPC plan, the doors' tokens).
  const limiters = serviceLimiters();
  const signInOf = (resolved: ResolvedChain, facilitator: ExactFacilitator | undefined) =>
    signInSettings(config, resolved.chain.network, facilitator?.network);
  const receiptKeyOf = (resolved: ResolvedChain) => receiptKeyFor(config, resolved.receiptSeed);
  /** Ends a start that cannot go on (what had started is released already): one clear line, exit 1. */
  const failStart = (error: unknown): never => {
    // A bad sites file found only now (read again by the sites' start) is a bad setting.
    if (error instanceof ConfigError) console.error(error.message);
    else logger.error("startup failed", { ...describeStartupFailure(error, config) });
    return exit(1);
  };
  const service = await startService({
    config,
    env,
    logger,
    metrics,
    events,
    localChain: options.localChain,
    sitesAtStart: sitesAtStart?.success,
    signIn: signInOf,
    receiptKey: receiptKeyOf,
    limiters,
  }).catch(failStart);
  const { chain: resolved, facilitator, runtime, docsSync, sites } = service;
  const { chain, fundDemoWallet } = resolved;
  const app = createApp({
    runtime,
    config,
    logger,
    metrics,
    web: { relay: { rpcUrl: chain.rpcUrl, wallet: chain.wallet, usdcMint: chain.usdcMint }, fundDemoWallet },
    facilitator,
    docsSync,
    signIn: signInOf(resolved, facilitator),
    receiptKey: receiptKeyOf(resolved),
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
      await service.stop();
      logger.info("stopped");
      exit(0);
    };
  };

  /** A start that fails after the parts started (the port in use): they are released first. */
  const failServing = async (error: unknown): Promise<never> => {
    await service.stop().catch(() => undefined);
    return failStart(error);
  };
  return { app, config, chain, logger, onSignal, failStart: failServing };
};
